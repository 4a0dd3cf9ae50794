// The pure parts of a conversation about a consult: the note cut to what the service takes, and
// the sandbox's assistant answering from the note alone and from the turns before.
import { describe, expect, it } from 'vitest';
import { chatContext } from '../../../../src/main/core/consults/conversation.ts';
import { MAX_CHAT_CONTEXT } from '../../../../src/shared/limits.ts';
import { answerTurn, ChatMemory } from '../../../../src/sandbox/chat.ts';

describe('the note as a conversation’s context', () => {
  it('is sent whole up to the limit, and cut at a line’s end beyond it', () => {
    expect(chatContext('  Weight 4 kg.\n')).toEqual({ context: 'Weight 4 kg.', cut: false });
    const exact = 'x'.repeat(MAX_CHAT_CONTEXT);
    expect(chatContext(exact)).toEqual({ context: exact, cut: false });
    const lines = 'A line of the history, forty characters.\n'.repeat(Math.ceil(MAX_CHAT_CONTEXT / 40) + 10);
    const { context, cut } = chatContext(lines);
    expect(cut).toBe(true);
    expect(context.length).toBeLessThanOrEqual(MAX_CHAT_CONTEXT);
    expect(context.endsWith('forty characters.')).toBe(true);
    // One long line has no line's end to cut at: it is cut at the limit.
    expect(chatContext('y'.repeat(MAX_CHAT_CONTEXT + 5)).context).toHaveLength(MAX_CHAT_CONTEXT);
  });
});

describe('the sandbox’s assistant', () => {
  it('answers from the note, says what it does not know, and knows the earlier turn', () => {
    const memory = new ChatMemory();
    const { id, conversation } = memory.start('org-a', 'Rex, dog. Weight 12 kg.\nPlan: carprofen 4 mg/kg once daily.');
    const first = answerTurn(conversation, 'Check the doses in this plan');
    expect(first).toContain('carprofen 4 mg/kg');
    expect(first).toContain('weight 12 kg');
    memory.remember(conversation, 'Check the doses in this plan', first);
    // A question of its own is answered on its own: the answer does not start by quoting the last one.
    const second = answerTurn(conversation, 'What did the radiographs show?');
    expect(second).toMatch(/does not say anything about radiographs, so I do not know/);
    expect(second).not.toContain('Check the doses in this plan');
    expect(second).not.toMatch(/^Earlier/);
    memory.remember(conversation, 'What did the radiographs show?', second);
    // A follow-up is read with the question before it, which is named at the end.
    const third = answerTurn(conversation, 'And her weight?');
    expect(third).toContain('weight 12 kg');
    expect(third).toContain('Following on from your question “What did the radiographs show?”.');
    expect(third).toMatch(/^The note records/);
    expect(memory.find('org-a', id)).toBe(conversation);
    expect(memory.find('org-b', id)).toBeUndefined();
    const blank = memory.start('org-a', '  ').conversation;
    expect(answerTurn(blank, 'What is her weight?')).toMatch(/given no note/);
  });

  it('works out each dose per kilogram for the note’s weight, as the treatment plan does, and says where an amount disagrees', () => {
    const { conversation } = new ChatMemory().start(
      'org-a',
      'Objective\nWeight 32.4 kg (32.0 kg three months ago).\n\nPlan\nMaropitant 1 mg/kg SC given today. Maropitant 60 mg (1 mg/kg) PO tomorrow.',
    );
    const answer = answerTurn(conversation, 'Check the doses in this plan');
    expect(answer).toContain('maropitant 1 mg/kg × 32.4 kg = 32.4 mg');
    expect(answer).toContain('60 mg is not 1 mg/kg for 32.4 kg (32.4 mg)');
    expect(answer).not.toMatch(/work each total from that weight/);
  });
});
