// The sandbox in a process of its own, for the benchmarks: what they measure (the client's
// memory, the core's own time) must not include the sandbox's work. Started by
// sandbox-process.ts with an IPC channel; answers `stats` and `close`; ends with its parent.
//   node sandbox-child.ts '<SandboxOptions JSON>'
import { startSandbox, type SandboxOptions } from '../../src/sandbox/index.ts';

type Message = { type: 'stats'; id: number } | { type: 'close' };

const overrides = JSON.parse(process.argv[2] ?? '{}') as Partial<SandboxOptions>;
const sandbox = await startSandbox(overrides);
const send = (message: unknown) => process.send?.(message);

const stop = async () => {
  await sandbox.close();
  process.exit(0);
};
process.on('message', (m: Message) => {
  if (m.type === 'stats') send({ type: 'stats', id: m.id, stats: sandbox.stats() });
  else if (m.type === 'close') void stop();
});
process.on('disconnect', () => void stop());
send({ type: 'ready', urls: sandbox.urls, origin: sandbox.origin, demo: sandbox.demo, options: sandbox.options });
