// The sandbox's flags and their environment equivalents (`npm run sandbox -- ...`).
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, OptionsError, parseOptions } from '../../src/sandbox/options.ts';

// Every flag the sandbox documents, its variable, a value, and where that value lands.
const CASES: [flag: string, env: string, value: string, key: keyof typeof DEFAULT_OPTIONS, parsed: unknown][] = [
  ['port', 'SANDBOX_PORT', '8123', 'port', 8123],
  ['data-dir', 'SANDBOX_DATA_DIR', '/tmp/sandbox-state', 'dataDir', '/tmp/sandbox-state'],
  ['access-ttl', 'SANDBOX_ACCESS_TTL', '3', 'accessTtlSeconds', 3],
  ['refresh-ttl', 'SANDBOX_REFRESH_TTL', '60', 'refreshTtlSeconds', 60],
  ['scribe-seconds', 'SANDBOX_SCRIBE_SECONDS', '0.5', 'scribeSeconds', 0.5],
  ['time-scale', 'SANDBOX_TIME_SCALE', '0.001', 'timeScale', 0.001],
  ['fail-rate', 'SANDBOX_FAIL_RATE', '0.3', 'failRate', 0.3],
  ['latency-ms', 'SANDBOX_LATENCY_MS', '300', 'latencyMs', 300],
  ['drop-rate', 'SANDBOX_DROP_RATE', '0.1', 'dropRate', 0.1],
  ['webhook-url', 'SANDBOX_WEBHOOK_URL', 'https://clinic.example/hooks', 'webhookUrl', 'https://clinic.example/hooks'],
  ['webhook-secret', 'SANDBOX_WEBHOOK_SECRET', 'whsec_1', 'webhookSecret', 'whsec_1'],
];

describe('sandbox options', () => {
  it('without flags or variables, gives the defaults', () => {
    expect(parseOptions([], {})).toEqual(DEFAULT_OPTIONS);
  });

  it.each(CASES)('--%s and %s both set it', (flag, env, value, key, parsed) => {
    expect(parseOptions([`--${flag}`, value], {})[key]).toEqual(parsed);
    expect(parseOptions([`--${flag}=${value}`], {})[key]).toEqual(parsed);
    expect(parseOptions([], { [env]: value })[key]).toEqual(parsed);
    // The other options stay as they were.
    const { [key]: _, ...rest } = parseOptions([`--${flag}`, value], {});
    const { [key]: __, ...defaults } = DEFAULT_OPTIONS;
    expect(rest).toEqual(defaults);
  });

  it.each([
    ['scribe-stall', 'SANDBOX_SCRIBE_STALL', 'scribeStall'],
    ['login-tokens-only', 'SANDBOX_LOGIN_TOKENS_ONLY', 'loginTokensOnly'],
    ['refresh-tokens-only', 'SANDBOX_REFRESH_TOKENS_ONLY', 'refreshTokensOnly'],
  ] as const)('the switch --%s (%s) is off by default, on by flag or by 1/true, off by 0/false', (flag, env, key) => {
    expect(DEFAULT_OPTIONS[key]).toBe(false);
    expect(parseOptions([`--${flag}`], {})[key]).toBe(true);
    for (const on of ['1', 'true', 'TRUE']) expect(parseOptions([], { [env]: on })[key]).toBe(true);
    for (const off of ['0', 'false', '']) expect(parseOptions([], { [env]: off })[key]).toBe(false);
    expect(() => parseOptions([], { [env]: 'yes' })).toThrow(
      new RegExp(`${env} must be 1, 0, true or false, not "yes"`),
    );
    const { [key]: _, ...rest } = parseOptions([`--${flag}`], {});
    const { [key]: __, ...defaults } = DEFAULT_OPTIONS;
    expect(rest).toEqual(defaults);
  });

  it('a flag wins over its variable; an empty variable is no setting', () => {
    expect(parseOptions(['--access-ttl', '5'], { SANDBOX_ACCESS_TTL: '60' }).accessTtlSeconds).toBe(5);
    expect(parseOptions([], { SANDBOX_ACCESS_TTL: '' }).accessTtlSeconds).toBe(DEFAULT_OPTIONS.accessTtlSeconds);
  });

  it.each([
    [['--fail-rate', '1.5'], /--fail-rate \(SANDBOX_FAIL_RATE\) must be a number from 0 to 1, not "1.5"/],
    [['--port', '80.5'], /--port \(SANDBOX_PORT\) must be a whole number from 0 to 65535/],
    [['--latency-ms', 'soon'], /--latency-ms .* not "soon"/],
    [['--access-ttl', '0'], /--access-ttl .* from 1 /],
    [
      ['--webhook-url', 'ftp://clinic.example/'],
      /--webhook-url must be an http\(s\) URL, not "ftp:\/\/clinic.example\/"/,
    ],
    [['--webhook-url', 'not a url'], /--webhook-url must be an http\(s\) URL/],
    [['--no-such-flag', '1'], /no-such-flag/],
    [['positional'], /positional/],
  ])('refuses %j, saying what is wrong', (argv, message) => {
    expect(() => parseOptions(argv, {})).toThrow(OptionsError);
    expect(() => parseOptions(argv, {})).toThrow(message);
  });

  it('names the variable when the bad value came from it', () => {
    expect(() => parseOptions([], { SANDBOX_DROP_RATE: '-0.1' })).toThrow(/SANDBOX_DROP_RATE.*not "-0.1"/);
  });

  it('takes the secret its keys come from from SANDBOX_SECRET_KEY only, and refuses one too short to be a key', () => {
    const key = Buffer.alloc(32, 1).toString('base64');
    expect(parseOptions([], { SANDBOX_SECRET_KEY: key }).secretKey).toBe(key);
    expect(parseOptions([], {}).secretKey).toBeNull();
    expect(() => parseOptions([], { SANDBOX_SECRET_KEY: 'hunter2' })).toThrow(
      /^SANDBOX_SECRET_KEY must be at least 32 random bytes in base64/,
    );
    expect(() => parseOptions([], { SANDBOX_SECRET_KEY: Buffer.alloc(16, 1).toString('base64') })).toThrow(
      OptionsError,
    );
    // Never a flag: a command line is seen by every user of the computer.
    expect(() => parseOptions(['--secret-key', key])).toThrow(OptionsError);
  });
});
