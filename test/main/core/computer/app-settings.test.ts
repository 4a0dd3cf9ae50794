// Settings as a clinic changes them (src/main/core/computer/app-settings.ts): a change of the service in
// use signs the vet out and starts consults without a note again there; a change that leaves the
// service in use as it was (addresses kept for later while the built-in sandbox is in use)
// touches neither. The real engine and its embedded sandbox, over real HTTP.
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { serviceInUseChanged } from '../../../../src/main/core/computer/app-settings.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { DEFAULT_SETTINGS, PUBLISHED_SERVICE_URLS } from '../../../../src/shared/settings.ts';
import { firstTemplateId, makeRecording, waitForJob } from '../../../support/core.ts';
import { jobFile } from '../jobs/support.ts';
import { builtInCores } from '../support.ts';

const { signedIn } = builtInCores();

describe('a change of settings and the service in use', () => {
  it('new addresses saved while the built-in sandbox is in use keep the vet signed in and the consult in flight as it was', async () => {
    const c = await signedIn({ sandbox: { scribeSeconds: 30 } });
    const h = createHandlers(c);
    const id = await makeRecording(c, null, null, { patientName: 'Bella' });
    await c.pipeline.submit(id, await firstTemplateId(c));
    await waitForJob(c, id, (j) => j.state === 'scribe_requested');
    const before = c.pipeline.serviceIds(id);

    const saved = await h['settings:update']({
      serviceUrls: {
        agentsUrl: 'https://agents.clinic.example',
        scribeUrl: 'https://scribe.clinic.example',
        agentsApiUrl: 'https://agents-api.clinic.example',
      },
    });
    expect(saved.ok && saved.data.serviceUrls.scribeUrl).toBe('https://scribe.clinic.example');
    expect(c.session.state().signedIn).toBe(true);
    const after = c.pipeline.info(id)!;
    expect(after.state).toBe('scribe_requested');
    expect(c.pipeline.serviceIds(id)).toEqual(before);
    expect(c.pipeline.counters.scribeRequests).toBe(1);
    expect(c.appInfo().notices).toEqual([]);
  }, 30_000);

  it('tells a change of the service in use from addresses kept for later', () => {
    const urls = DEFAULT_SETTINGS.serviceUrls;
    const other = { ...urls, agentsUrl: 'https://agents.clinic.example' };
    expect(serviceInUseChanged({ useSandbox: true, serviceUrls: urls }, { useSandbox: true, serviceUrls: other })).toBe(
      false,
    );
    expect(serviceInUseChanged({ useSandbox: true, serviceUrls: urls }, { useSandbox: false, serviceUrls: urls })).toBe(
      true,
    );
    expect(
      serviceInUseChanged({ useSandbox: false, serviceUrls: urls }, { useSandbox: false, serviceUrls: other }),
    ).toBe(true);
    expect(
      serviceInUseChanged({ useSandbox: false, serviceUrls: urls }, { useSandbox: false, serviceUrls: urls }),
    ).toBe(false);
  });

  it('choosing the published service signs out and starts again there every consult without a note', async () => {
    const c = await signedIn({ sandbox: { scribeSeconds: 30 } });
    const id = await makeRecording(c);
    await c.pipeline.submit(id, await firstTemplateId(c));
    await waitForJob(c, id, (j) => j.state === 'scribe_requested');
    const settings = await createHandlers(c)['settings:update']({
      useSandbox: false,
      serviceUrls: { ...PUBLISHED_SERVICE_URLS },
    });
    expect(settings).toMatchObject({ ok: true, data: { useSandbox: false, serviceUrls: PUBLISHED_SERVICE_URLS } });
    expect(c.serviceUrls()).toEqual(PUBLISHED_SERVICE_URLS);
    expect(c.session.state().signedIn).toBe(false);
    expect(c.embeddedSandbox).toBeNull();
    // Nothing is sent to the published service until the vet signs in there.
    expect(await waitForJob(c, id, (j) => j.state === 'recorded' && j.waitingFor === 'sign-in')).toMatchObject({
      error: null,
      overdue: false,
    });
    const onDisk = JSON.parse(readFileSync(jobFile(c, id), 'utf8')) as Record<string, unknown>;
    expect(onDisk).toMatchObject({ state: 'recorded', recordingSessionId: null, scribeId: null, upload: null });
  });

  it('tries a service before it is saved: refuses each address where nothing answers, saves nothing, signs no one out', async () => {
    const c = await signedIn();
    const h = createHandlers(c);
    const before = structuredClone(c.settings.get());
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((r) => server.close(() => r()));
    const dead = `http://127.0.0.1:${port}`;
    const live = c.serviceUrls();

    const refused = await h['settings:tryService']({
      serviceUrls: { agentsUrl: live.agentsUrl, scribeUrl: dead, agentsApiUrl: dead },
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    if (!refused.ok) {
      expect(refused.error.message).toContain(
        `serviceUrls.scribeUrl: could not be reached. Nothing answers at 127.0.0.1:${port}`,
      );
      expect(refused.error.message).toContain('serviceUrls.agentsApiUrl: could not be reached.');
      expect(refused.error.message).not.toContain('serviceUrls.agentsUrl');
    }
    // Any answer counts: the sandbox's own addresses answer, even where no operation is.
    expect(await h['settings:tryService']({ serviceUrls: live })).toEqual({ ok: true, data: null });
    // An address a setting refuses is refused before anything is tried.
    const bad = await h['settings:tryService']({ serviceUrls: { ...live, agentsUrl: 'ftp://x' } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(c.settings.get()).toEqual(before);
    expect(c.session.state().signedIn).toBe(true);
  }, 30_000);
});
