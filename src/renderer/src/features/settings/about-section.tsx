// Where the sign-in is kept, and what this app is and talks to.
import { useId } from 'react';
import type { AppInfo } from '../../../../shared/ipc.ts';
import type { Settings } from '../../../../shared/settings.ts';
import { serviceInWords } from '../../lib/service-kind.ts';

export function KeychainSection({ app }: { app: AppInfo }) {
  const ids = useId();
  const { secretStore } = app;
  return (
    <section className="panel settings-section" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Where your sign-in is kept</h2>
      {/* The fact, not another warning: the one warning is the notice at the top of the window. */}
      <p>Your sign-in is kept {secretStore.description}.</p>
    </section>
  );
}

export function AboutSection({ app, settings }: { app: AppInfo; settings: Settings }) {
  const ids = useId();
  return (
    <section className="panel settings-section" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>About</h2>
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
    </section>
  );
}
