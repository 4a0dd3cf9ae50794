// Where the sign-in is kept, and what this app is and talks to.
import type { AppInfo } from '../../../../shared/ipc.ts';
import type { Settings } from '../../../../shared/settings.ts';
import { serviceInWords } from '../../lib/service-kind.ts';
import { SettingsSection } from './section.tsx';

export function KeychainSection({ app }: { app: AppInfo }) {
  const { secretStore } = app;
  return (
    <SettingsSection title="Where your sign-in is kept">
      {/* The fact, not another warning: the one warning is the notice at the top of the window. */}
      <p>Your sign-in is kept {secretStore.description}.</p>
    </SettingsSection>
  );
}

export function AboutSection({ app, settings }: { app: AppInfo; settings: Settings }) {
  return (
    <SettingsSection title="About">
      <dl className="settings-about">
        <dt>App</dt>
        <dd>{app.name}</dd>
        <dt>Version</dt>
        <dd>{app.version}</dd>
        <dt>Service</dt>
        <dd>
          {serviceInWords(settings)}
          {app.sandbox && (
            <>
              {' '}
              <span className="badge badge-warning">example notes only — not for real patients</span>
            </>
          )}
        </dd>
      </dl>
    </SettingsSection>
  );
}
