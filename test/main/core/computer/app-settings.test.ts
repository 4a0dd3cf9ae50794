// Settings as a clinic changes them (src/main/core/computer/app-settings.ts): a change of the service in
// use signs the vet out and starts consults without a note again there; a change that leaves the
// service in use as it was (addresses kept for later while the built-in sandbox is in use)
// touches neither. The real engine and its embedded sandbox, over real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { serviceInUseChanged } from '../../../../src/main/core/computer/app-settings.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { DEFAULT_SETTINGS } from '../../../../src/shared/settings.ts';
import { firstTemplateId, makeRecording, startCore, waitForJob } from '../../../support/core.ts';

const cores: AppCore[] = [];
afterEach(async () => {
  while (cores.length) await cores.pop()?.stop();
});

describe('a change of settings and the service in use', () => {
  it('new addresses saved while the built-in sandbox is in use keep the vet signed in and the consult in flight as it was', async () => {
    const c = await startCore({ sandbox: { scribeSeconds: 30 } });
    cores.push(c);
    const h = createHandlers(c);
    await c.session.signIn(c.embeddedSandbox!.demo.email, c.embeddedSandbox!.demo.password);
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
});
