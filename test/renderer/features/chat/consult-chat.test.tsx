// The conversation under a consult's note, against the real core and its sandbox: a quick
// question sent with the note, "Asking…" while it is on its way, the answer shown as text; a
// message that fails stays in the box with one sentence; the turns are shown again when the
// note is opened again.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { ConsultChat } from '../../../../src/renderer/src/features/chat/consult-chat.tsx';
import { NoteView } from '../../../../src/renderer/src/features/note/note-view.tsx';
import { windowWithEngine } from '../../support/window.ts';
import { firstTemplateId, recordConsult } from '../../support/recorded-consult.ts';
import { api } from '../../../../src/renderer/src/api.ts';

describe('asking about a consult', () => {
  let core: AppCore;
  let id: string;

  beforeAll(async () => {
    ({ core } = await windowWithEngine({ signIn: true }));
    id = await recordConsult({ patientName: 'Bella', description: 'vomiting', templateId: await firstTemplateId() });
    await waitFor(() => expect(core.pipeline.info(id)?.state).toBe('completed'), { timeout: 15_000 });
    await api.consults.saveNote({
      id,
      text: '## Objective\nWeight 28.4 kg. Temperature 39.4 °C.\n\n## Plan\nMaropitant 1 mg/kg SC once.',
    });
  }, 30_000);
  afterEach(() => cleanup());
  afterAll(async () => {
    await core.stop();
  });

  const box = () => screen.getByRole('textbox', { name: 'Your question about this consult' }) as HTMLTextAreaElement;
  const turns = () => within(screen.getByRole('list', { name: 'Conversation' })).getAllByRole('listitem');

  it('asks a quick question with the note, shows it is asking, then the answer; a failed message stays in the box; the turns come back', async () => {
    render(<ConsultChat id={id} />);
    expect(screen.getByRole('heading', { name: 'Ask about this consult' })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Conversation' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Ask' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'What should the pet owner watch for?' }));
    const asking = await screen.findByRole('status');
    expect(asking.textContent).toBe('Asking: “What should the pet owner watch for?”…');
    await waitFor(() => expect(turns()).toHaveLength(1));
    expect(screen.queryByRole('status')).toBeNull();
    expect(turns()[0]!.textContent).toContain('What should the pet owner watch for?');
    expect(turns()[0]!.textContent).toContain('temperature 39.4 °C');
    expect(box().value).toBe('');

    // The service fails: the message stays in the box, with one sentence.
    const sandbox = (core.embeddedSandbox as { options: { failRate: number } } | null)!;
    sandbox.options.failRate = 1;
    fireEvent.change(box(), { target: { value: 'Check the doses in this plan' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(
      /^The assistant could not answer: The sandbox is simulating an outage[^.]*; try again\.$/,
    );
    expect(box().value).toBe('Check the doses in this plan');
    expect(turns()).toHaveLength(1);
    // Leaving the note and coming back finds it in the box still.
    cleanup();
    render(<ConsultChat id={id} />);
    await waitFor(() => expect(turns()).toHaveLength(1));
    expect(box().value).toBe('Check the doses in this plan');

    // The service is back: Enter sends what the box holds; the answer knows the earlier turn.
    sandbox.options.failRate = 0;
    fireEvent.keyDown(box(), { key: 'Enter' });
    await waitFor(() => expect(turns()).toHaveLength(2));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(turns()[1]!.textContent).toContain('1 mg/kg');
    expect(turns()[1]!.textContent).not.toContain('Earlier you asked');
    expect(box().value).toBe('');
    cleanup();

    // Opened again (the note's view, where it sits under the note): the turns are read from main.
    render(<NoteView id={id} />);
    await screen.findByRole('region', { name: 'Note' });
    await waitFor(() => expect(turns()).toHaveLength(2));
    expect(turns().map((t) => t.querySelector('.chat-you .chat-text')!.textContent)).toEqual([
      'What should the pet owner watch for?',
      'Check the doses in this plan',
    ]);
  });
});
