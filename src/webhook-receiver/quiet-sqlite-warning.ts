/**
 * Node 22 marks node:sqlite experimental and prints a warning on stderr when it is first used.
 * The command's output is read by people and scripts, so that one warning is left out; every
 * other warning is still printed as Node would.
 */
export function quietSqliteWarning(): void {
  const others = process.listeners('warning');
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (warning.name === 'ExperimentalWarning' && /sqlite/i.test(warning.message)) return;
    if (others.length > 0) for (const listener of others) listener(warning);
    else process.stderr.write(`(node:${process.pid}) ${warning.name}: ${warning.message}\n`);
  });
}
