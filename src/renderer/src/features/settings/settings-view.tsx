// Settings: each section saves on its own, with its own answer beside it. The app's own
// settings are mirrored from main; the organization's come from the service. What the view
// shows and what was typed in it are the signed-in vet's: left open through Switch user (a
// recording going on keeps the window), it is built again for the next vet, who reads their own.
import { useEffect, useState } from 'react';
import { useSession } from '../../stores/session.ts';
import { useSettings } from '../../stores/settings.ts';
import { useOnline } from '../../hooks/use-online.ts';
import { AboutSection, KeychainSection } from './about-section.tsx';
import { OrganizationSection } from './organization-section.tsx';
import { PimsSection } from './pims-section.tsx';
import { RelaySection } from './relay-section.tsx';
import { ConsentSection } from './consent-section.tsx';
import { RecordingLengthSection } from './recording-length-section.tsx';
import { ShortcutSection } from './shortcut-section.tsx';
import { UpdatesSection } from './updates-section.tsx';
import { RetentionSection } from './retention-section.tsx';
import { ServiceSection } from './service-section.tsx';
import { WebhookSection } from './webhook-section.tsx';
import './settings.css';

export function SettingsView() {
  const vet = useSession((s) => (s.session.signedIn ? (s.session.user?.id ?? null) : null));
  return <VetSettings key={vet ?? ''} />;
}

function VetSettings() {
  const settings = useSettings((s) => s.settings);
  const app = useSession((s) => s.app);
  const online = useOnline();
  const [loadError, setLoadError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  // The shell loads the settings at sign-in; this covers a failed load, and "Try again".
  useEffect(() => {
    if (useSettings.getState().settings) return;
    useSettings
      .getState()
      .load()
      .catch((e: unknown) => setLoadError((e as Error).message));
  }, [attempt]);

  function retry() {
    setLoadError(null);
    setAttempt((a) => a + 1);
  }

  if (!settings || !app) {
    return (
      <section className="settings" aria-labelledby="settings-title">
        <h1 id="settings-title">Settings</h1>
        {loadError ? (
          <div className="notice notice-error" role="alert">
            <p>The settings could not be loaded. {loadError}</p>
            <button type="button" onClick={retry}>
              Try again
            </button>
          </div>
        ) : (
          <p className="muted" aria-busy="true" role="status">
            Loading the settings…
          </p>
        )}
      </section>
    );
  }

  // The loopback sandbox needs no network; only a remote service does.
  const needsNetwork = !online && !app.sandbox;
  const serviceKey = JSON.stringify([settings.useSandbox, settings.serviceUrls, settings.signInAtScribe]);

  return (
    <section className="settings" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <ServiceSection key={serviceKey} settings={settings} />
      <OrganizationSection needsNetwork={needsNetwork} />
      <WebhookSection needsNetwork={needsNetwork} sandbox={app.sandbox !== null} />
      <PimsSection />
      <RelaySection relayUrl={settings.relayUrl} computerName={settings.computerName} hostName={app.hostName} />
      <RetentionSection retentionDays={settings.retentionDays} />
      <RecordingLengthSection maxRecordingMinutes={settings.maxRecordingMinutes} />
      <ConsentSection askPetOwnerConsent={settings.askPetOwnerConsent} />
      <ShortcutSection recordShortcut={settings.recordShortcut} desktop={app.desktop} />
      <UpdatesSection updateFeedUrl={settings.updateFeedUrl} />
      <KeychainSection app={app} />
      <AboutSection app={app} settings={settings} />
    </section>
  );
}
