// What the tests of the service's parsers share: an answer in the published shape, read from
// test/fixtures/service, and the check that a parser refused an answer naming the operation,
// the field and what was wrong with it.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { ServiceResponseError, type Operation } from '../../src/shared/service/index.ts';

/** A published answer kept in test/fixtures/service. */
export const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../fixtures/service/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

/** That `parse` refuses with a ServiceResponseError naming `operation`, `field` and the problem. */
export function expectFailure(parse: () => unknown, operation: Operation, field: string, problem: string | RegExp) {
  let caught: unknown;
  try {
    parse();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(ServiceResponseError);
  const e = caught as ServiceResponseError;
  expect(e.operation).toBe(operation);
  expect(e.field).toBe(field);
  expect(e.message).toMatch(problem);
}
