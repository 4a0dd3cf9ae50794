// Logging for the core. Every line goes through redact() before it reaches the sink, so a
// token, a password or a presigned upload signature cannot reach a log file even by mistake.
import { appendFileSync } from 'node:fs';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const PATTERNS: [RegExp, string][] = [
  // JWTs: three base64url parts, the first a JSON header ("eyJ").
  [/eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/g, '[redacted token]'],
  [/(bearer\s+)\S+/gi, '$1[redacted]'],
  [
    /("?(?:password|access_token|refresh_token|token|accessToken|refreshToken)"?\s*[:=]\s*)("[^"]*"|[^\s,}&]+)/gi,
    '$1[redacted]',
  ],
  [/([?&](?:signature|sig|X-Amz-Signature|token)=)[^&\s"]+/gi, '$1[redacted]'],
];

export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 8) out = out.split(secret).join('[redacted]');
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

export function createLogger(
  sink: (level: LogLevel, line: string) => void,
  minLevel: LogLevel = 'info',
  secrets: () => readonly string[] = () => [],
): Logger {
  const write = (level: LogLevel) => (message: string) => {
    if (ORDER[level] < ORDER[minLevel]) return;
    sink(level, redact(message, secrets()));
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * A logger from the environment, for runs without Electron (the browser test host, the test
 * suite): VET_SCRIBE_LOG_FILE appends every line there, at VET_SCRIBE_LOG_LEVEL (default info).
 */
export function loggerFromEnv(env: Record<string, string | undefined> = process.env): Logger {
  const file = env['VET_SCRIBE_LOG_FILE'];
  if (!file) return silentLogger;
  const level = (['debug', 'info', 'warn', 'error'] as const).find((l) => l === env['VET_SCRIBE_LOG_LEVEL']) ?? 'info';
  return createLogger((lvl, line) => {
    try {
      appendFileSync(file, `${new Date().toISOString()} [${lvl}] ${line}\n`);
    } catch {
      // A line that cannot be written (a full disk, a folder gone) is dropped: logging must never
      // turn into the failure of what it was noting (a Stop on a full disk would fail twice).
    }
  }, level);
}
