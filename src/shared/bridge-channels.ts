// How the preload learns which channels the contract has without loading the contract itself
// (its schemas need zod, and a sandboxed preload is one small CommonJS file): main, which has
// the contract, hands the names to the window's renderer process as one command-line argument
// (webPreferences.additionalArguments, Electron's way to pass a preload small bits of data), and
// the preload reads them from process.argv. No list of names is kept by hand anywhere.

const PREFIX = '--vet-scribe-ipc=';

export interface BridgeChannels {
  invoke: readonly string[];
  events: readonly string[];
}

/** The argument main gives the window's renderer process. */
export function channelsArgument(channels: BridgeChannels): string {
  return `${PREFIX}${JSON.stringify({ invoke: channels.invoke, events: channels.events })}`;
}

/** The channels named on a renderer's command line; none when the argument is missing or malformed. */
export function channelsFromArgv(argv: readonly string[]): BridgeChannels {
  const arg = argv.find((a) => a.startsWith(PREFIX));
  const none = { invoke: [], events: [] };
  if (!arg) return none;
  try {
    const parsed = JSON.parse(arg.slice(PREFIX.length)) as Partial<BridgeChannels>;
    const names = (v: unknown) =>
      Array.isArray(v) ? v.filter((n): n is string => typeof n === 'string' && /^[a-z]+(:[A-Za-z]+)?$/.test(n)) : [];
    return { invoke: names(parsed.invoke), events: names(parsed.events) };
  } catch {
    return none;
  }
}
