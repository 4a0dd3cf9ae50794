// The frame every section of Settings shares: a panel named by its heading (the tests and
// screen readers find each section as a region by that name), the sentence a section that
// needs the service shows while the computer is offline, and the list a setting is chosen from.
import { useId, type ReactNode } from 'react';
import { SelectField, type SelectFieldProps } from '../../components/select-field.tsx';

export function SettingsSection({ title, children }: { title: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="panel settings-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

/** Said by a section whose change is a call to the service, while the network is down. */
export function OfflineNotice() {
  return (
    <p className="notice notice-warning" role="status">
      You are offline. Changing this needs the service; try again when the connection is back.
    </p>
  );
}

/** A setting chosen from a list and saved as soon as it is chosen; `saving` while main saves it. */
export function SettingSelect({ saving, ...field }: Omit<SelectFieldProps, 'id' | 'className'> & { saving: boolean }) {
  const id = useId();
  return <SelectField {...field} id={id} className="settings-select" aria-busy={saving} />;
}
