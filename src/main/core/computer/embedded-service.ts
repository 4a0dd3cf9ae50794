// The built-in sandbox while the vet has chosen it: started through the port the engine was
// given, with its key kept in the secret store, and the addresses the service client uses.
import { join } from 'node:path';
import type { Notice } from '../../../shared/ipc.ts';
import type { Logger, EmbeddedService, EmbeddedServicePort } from '../platform/index.ts';
import type { SecretStore } from '../sign-in/index.ts';
import type { ServiceUrls } from '../service/index.ts';

// Port 9 (discard): a call while the sandbox is down fails at once, as an unreachable service.
const UNAVAILABLE = 'http://127.0.0.1:9/unavailable';

export interface EmbeddedServiceOptions<S extends EmbeddedService> {
  port: EmbeddedServicePort<S> | undefined;
  dataDir: string;
  secretStore: SecretStore;
  log: Logger;
  notice: (n: Notice) => void;
}

export class EmbeddedServiceHost<S extends EmbeddedService = EmbeddedService> {
  private readonly options: EmbeddedServiceOptions<S>;
  /** The sandbox while it runs. */
  running: S | null = null;

  constructor(options: EmbeddedServiceOptions<S>) {
    this.options = options;
  }

  urls(): ServiceUrls {
    if (!this.running) return { agentsUrl: UNAVAILABLE, scribeUrl: UNAVAILABLE, agentsApiUrl: UNAVAILABLE };
    const { urls } = this.running;
    return { agentsUrl: urls.agents_url, scribeUrl: urls.scribe_url, agentsApiUrl: urls.agents_api_url };
  }

  async start(): Promise<void> {
    const { port, log } = this.options;
    if (!port) throw new Error('this build has no built-in sandbox');
    this.running = await port.start({
      dataDir: join(this.options.dataDir, 'sandbox'),
      secretKey: () => this.secret(port),
    });
    log.info(`sandbox: serving on ${this.running.origin}`);
    const problem = this.running.stateProblem();
    if (problem) {
      log.warn(`sandbox: ${problem}; it runs in memory`);
      this.options.notice({
        level: 'warning',
        message:
          'The built-in sandbox cannot keep its demo data on this disk, so it runs in memory: its example consults start afresh next time. Your recordings are not affected.',
      });
    }
  }

  /** At launch a sandbox that cannot start is said in a notice: the vet's recordings stay within reach. */
  async startAtLaunch(): Promise<void> {
    try {
      await this.start();
    } catch (e) {
      this.options.log.warn(`sandbox: could not start: ${(e as Error).message}`);
      this.options.notice({
        level: 'error',
        message:
          'The built-in sandbox could not start, so nothing can be sent to it. Recordings on this computer are kept. Choose another service in Settings, or restart the app.',
      });
    }
  }

  async stop(): Promise<void> {
    await this.running?.close();
    this.running = null;
  }

  /**
   * The built-in sandbox's secret, from the secret store beside the session (made and kept
   * there the first time). A store that cannot be read or written gives one for this run: its
   * sign-ins then last the run, as a session kept in memory does.
   */
  private async secret(port: EmbeddedServicePort<S>): Promise<string> {
    const { secretStore: store, log } = this.options;
    try {
      const kept = await store.loadSecret('sandbox-key');
      // One that is not a key (altered by hand) is replaced.
      if (kept && port.secretProblem(kept) === null) return kept;
    } catch (e) {
      log.warn(
        `sandbox: its key could not be read from the secret store (${(e as Error).message}); one for this run is used`,
      );
      return port.newSecret();
    }
    const secret = port.newSecret();
    await store
      .saveSecret('sandbox-key', secret)
      .catch((e: unknown) =>
        log.warn(
          `sandbox: its key could not be kept in the secret store (${(e as Error).message}); sign-ins to it last this run`,
        ),
      );
    return secret;
  }
}
