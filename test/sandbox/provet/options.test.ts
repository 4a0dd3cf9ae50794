// The Provet double's sandbox options: flags and environment variables, checked like the others.
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, OptionsError, parseOptions } from '../../../src/sandbox/index.ts';

describe("the Provet double's options", () => {
  it("defaults to Provet's published lifetimes, each endpoint's own limit and no fault", () => {
    expect(DEFAULT_OPTIONS).toMatchObject({
      provetAccessTtlSeconds: 36_000,
      provetRefreshTtlSeconds: 30 * 24 * 3600,
      provetRateLimit: null,
      provetNoteFault: 'none',
    });
  });

  it('reads the flags, and the environment when no flag is given', () => {
    const options = parseOptions(
      ['--provet-access-ttl', '5', '--provet-rate-limit', '0', '--provet-note-fault', 'drop-after-write'],
      { SANDBOX_PROVET_NOTE_FAULT: 'forbidden', SANDBOX_PROVET_REFRESH_TTL: '60' },
    );
    expect(options).toMatchObject({
      provetAccessTtlSeconds: 5,
      provetRefreshTtlSeconds: 60,
      provetRateLimit: 0,
      provetNoteFault: 'drop-after-write',
    });
    expect(parseOptions([], { SANDBOX_PROVET_NOTE_FAULT: 'refuse-body' }).provetNoteFault).toBe('refuse-body');
  });

  it('refuses a fault it does not know and a limit that is not a whole number, naming the flag', () => {
    expect(() => parseOptions(['--provet-note-fault', 'sometimes'])).toThrow(OptionsError);
    expect(() => parseOptions(['--provet-note-fault', 'sometimes'])).toThrow(/--provet-note-fault.*refuse-body/);
    expect(() => parseOptions(['--provet-rate-limit', '2.5'])).toThrow(/--provet-rate-limit/);
    expect(() => parseOptions(['--provet-access-ttl', '0'])).toThrow(/--provet-access-ttl/);
  });
});
