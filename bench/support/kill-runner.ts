// The kill run's child: the tests' core runner (test/support/core-runner.ts, same
// arguments), with each HTTP request it makes reported on stdout as it ends
// (`http <METHOD> <route> <status or error code>`), so the parent can count sign-ins,
// refreshes, refused refreshes and transient failures of a process it kills without warning.
import { HttpTrace, routeOf } from './http-trace.ts';

new HttpTrace({
  keep: false,
  onEnd: (r) => process.stdout.write(`http ${routeOf(r)} ${r.status ?? r.error ?? 'unknown'}\n`),
}).start();
await import('../../test/support/core-runner.ts');
