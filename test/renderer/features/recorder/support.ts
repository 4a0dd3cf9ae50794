// What the Record view's tests share: the view and its stores loaded once the microphone is in,
// the sandbox's count of the recording sessions it made, and the steps a vet takes in the view.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import type { Sandbox } from '../../../../src/sandbox/index.ts';
import { windowWithMicrophone } from '../../support/window.ts';

/**
 * The Record view, its controller and the stores it reads, imported only when called: the
 * recorder learns once, as its store loads, whether this window can record, so the microphone
 * (windowWithMicrophone) must be in first.
 */
export async function recorderModules() {
  return {
    ...(await import('../../../../src/renderer/src/features/recorder/recorder-controller.ts')),
    ...(await import('../../../../src/renderer/src/features/recorder/recorder-view.tsx')),
    ...(await import('../../../../src/renderer/src/stores/recorder.ts')),
    ...(await import('../../../../src/renderer/src/stores/templates.ts')),
    ...(await import('../../../../src/renderer/src/stores/consults.ts')),
  };
}

export type RecorderModules = Awaited<ReturnType<typeof recorderModules>>;

/**
 * A signed-in window with a microphone, the Record view's modules loaded after it, the consults
 * read; `options` as windowWithMicrophone takes them (main's ports a test stands in for).
 */
export async function recorderWindow(options: Parameters<typeof windowWithMicrophone>[0] = {}) {
  const window = await windowWithMicrophone({ ...options, signIn: true });
  const m = await recorderModules();
  await m.useConsults.getState().load();
  return { ...window, m };
}

/** How many recording sessions the sandbox was asked to create, over HTTP. */
export const sessionsCreated = (core: AppCore) =>
  (core.embeddedSandbox as Sandbox | null)?.stats().byRoute['POST /scribe/recording-sessions/create'] ?? 0;

/** Waits until the recorder records; answers its consult's id. */
export async function whenRecording(): Promise<string> {
  const { useRecorder } = await import('../../../../src/renderer/src/stores/recorder.ts');
  await waitFor(() => expect(useRecorder.getState().status).toBe('recording'), { timeout: 5000 });
  return useRecorder.getState().id!;
}

/** Chooses SOAP in the view's Template field, once the service's templates are in. */
export async function chooseSoap(): Promise<void> {
  const { useTemplates } = await import('../../../../src/renderer/src/stores/templates.ts');
  const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Template' });
  await waitFor(() => expect(useTemplates.getState().items.length).toBeGreaterThan(0));
  const soap = useTemplates.getState().items.find((t) => t.name === 'SOAP')!;
  fireEvent.change(select, { target: { value: soap.id } });
}
