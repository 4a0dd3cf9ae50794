// `npm run sandbox -- --port 0`: prints one JSON line with the three base addresses and the
// demo account, then serves until stopped (Ctrl+C, SIGTERM).
import { OptionsError, parseOptions, startSandbox } from './index.ts';

async function main(): Promise<void> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2), process.env);
  } catch (e) {
    if (e instanceof OptionsError) {
      console.error(`sandbox: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  const sandbox = await startSandbox(options);
  const line: Record<string, unknown> = {
    ...sandbox.urls,
    demo: sandbox.demo,
    // The practice-management system's test double: its address and client ID, as a clinic's IT would type them.
    provet: { address: sandbox.provet.address, client_id: sandbox.provet.clientId },
  };
  if (options.webhookUrl) {
    line['webhook_url'] = options.webhookUrl;
    // A secret the sandbox made up must be told, or no receiver could verify its deliveries.
    if (!options.webhookSecret) line['webhook_secret'] = sandbox.webhookSecret;
  }
  process.stdout.write(`${JSON.stringify(line)}\n`);
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(`sandbox: ${(e as Error).message}`);
  process.exit(1);
});
