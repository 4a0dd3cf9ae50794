// The agents' IPC calls check their input in main: empty or blank input is refused with a clear
// sentence and nothing reaches the service.
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { builtInCores } from '../support.ts';

const { core } = builtInCores();

describe('agent input checked in main', () => {
  it('agents:ddx and agents:treatmentPlan with empty or blank input answer { ok: false } with a clear message, and nothing reaches the service', async () => {
    const c = await core();
    const handlers = createHandlers(c);
    const demo = c.appInfo().sandbox!.demo;
    expect(await handlers['session:signIn'](demo)).toMatchObject({ ok: true });
    const sandboxStats = () => c.embeddedSandbox!.stats();
    const before = sandboxStats().requests;
    for (const input of ['', ' ', '   ', '\n\t  \r\n']) {
      const ddx = await handlers['agents:ddx']({ input });
      expect(ddx, JSON.stringify(input)).toEqual({
        ok: false,
        error: { code: 'invalid_input', message: 'Type or paste a clinical history first.' },
      });
      const plan = await handlers['agents:treatmentPlan']({ input, allowWithoutSpecies: true });
      expect(plan, JSON.stringify(input)).toEqual({
        ok: false,
        error: { code: 'invalid_input', message: 'Type or paste the case details first.' },
      });
    }
    expect(sandboxStats().requests).toBe(before);
    expect(sandboxStats().byRoute['POST /agents-api/ddx_agent_v2']).toBeUndefined();
    // The same channel with real input does reach it (so the count above could have moved).
    expect(await handlers['agents:ddx']({ input: '  Dog, 6 years, vomiting for two days  ' })).toMatchObject({
      ok: true,
    });
    expect(sandboxStats().byRoute['POST /agents-api/ddx_agent_v2']).toBe(1);
  });
});
