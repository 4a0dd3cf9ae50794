// The agent panels against the real core and its sandbox: what the vet types is what the
// service gets, and each kind of answer (result, refusal, species warning, failure) is shown;
// the Medications panel puts the plain-English lines first and a drug's dosing by species
// first on its card.
import { StrictMode } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import type * as PanelModule from '../../../../src/renderer/src/features/agents/agent-panel.tsx';
import type * as StoreModule from '../../../../src/renderer/src/features/agents/agents-store.ts';
import type * as NavModule from '../../../../src/renderer/src/stores/nav.ts';
import { MEDICATION_FIELDS } from '../../../../src/shared/service/fields.ts';
import { conciseText, summaryParagraphs } from '../../../../src/renderer/src/features/agents/answer-text.ts';
import { windowWithEngine, type WindowCall } from '../../support/window.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { recordThrough } from '../../../support/core.ts';

type Panels = typeof PanelModule & typeof StoreModule & typeof NavModule;

let core: AppCore;
let ui: Panels;
let sent: WindowCall[];

beforeAll(async () => {
  ({ core, calls: sent } = await windowWithEngine({ signIn: true }));
  ui = {
    ...(await import('../../../../src/renderer/src/features/agents/agent-panel.tsx')),
    ...(await import('../../../../src/renderer/src/features/agents/agents-store.ts')),
    ...(await import('../../../../src/renderer/src/stores/nav.ts')),
  };
}, 30_000);

beforeEach(async () => {
  if (!core.session.state().signedIn) {
    const demo = core.appInfo().sandbox!.demo;
    await core.session.signIn(demo.email, demo.password);
  }
  ui.clearAgents();
  sent.length = 0;
});
afterEach(cleanup);
afterAll(async () => {
  await core.stop();
});

const agentCalls = () => sent.filter((s) => s.channel.startsWith('agents:'));

function type(label: string, text: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value: text } });
}

/** Each panel's field and its send button. */
const FORM = {
  ddx: { field: 'Clinical history', send: 'Get differentials' },
  medication: { field: 'Drug and species', send: 'Look up medication' },
  treatment: { field: 'Case details', send: 'Get treatment plan' },
} as const;

/** Shows the agent's panel and sends `input` from it, as a vet types it and presses the button. */
function sendFrom(agent: keyof typeof FORM, input: string) {
  render(<ui.AgentPanel agent={agent} />);
  type(FORM[agent].field, input);
  fireEvent.click(screen.getByRole('button', { name: FORM[agent].send }));
}

/**
 * Sends, from the agent's panel, an input the service turns away (asked of the engine first, so
 * the reason expected is the service's own): the sentence the panel shows for it.
 */
async function sendTurnedAway(agent: 'ddx' | 'medication', input: string): Promise<HTMLElement> {
  const expected = await core.agents[agent](input);
  expect(expected.status).toBe(false);
  sendFrom(agent, input);
  return screen.findByText(`The service could not answer this: ${expected.reason}`);
}

/** True when `a` comes before `b` in the document. */
function before(a: Element, b: Element): boolean {
  return (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
}

describe('AgentPanel: ddx', () => {
  it('sends the clinical history and shows the plain-English lines before the cards', async () => {
    const history = 'Dog, 6 years, vomiting and diarrhoea for 3 days after eating rubbish, lethargic';
    const expected = await core.agents.ddx(history);
    render(<ui.AgentPanel agent="ddx" />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Differential diagnosis');
    expect(document.activeElement).toBe(screen.getByLabelText('Clinical history'));

    type('Clinical history', history);
    fireEvent.click(screen.getByRole('button', { name: 'Get differentials' }));
    const waiting = screen.getByRole('button', { name: 'Asking…' });
    expect((waiting as HTMLButtonElement).disabled).toBe(true);
    expect(waiting.getAttribute('aria-busy')).toBe('true');

    const inShort = await screen.findByRole('heading', { name: 'In short' });
    expect(agentCalls()).toEqual([{ channel: 'agents:ddx', input: { input: history } }]);
    expect(screen.getByText(conciseText(expected.concise))).toBeTruthy();
    // The summary in paragraphs, the service's check of the input ("Relevant to …") nowhere.
    const paragraphs = summaryParagraphs(expected.summary, expected.concise);
    expect(paragraphs.length).toBeGreaterThan(1);
    const summary = screen.getByText(paragraphs[0]!);
    for (const p of paragraphs) expect(screen.getByText(p).tagName).toBe('P');
    expect(expected.reason).toMatch(/^Relevant to/);
    expect(screen.queryByText(expected.reason)).toBeNull();
    expect(document.body.textContent?.match(/In short/g)).toHaveLength(1);
    const articles = screen.getAllByRole('article');
    expect(articles.map((a) => within(a).getByRole('heading', { level: 3 }).textContent)).toEqual(
      expected.diagnoses.map((d) => d.label),
    );
    expect(before(inShort, summary)).toBe(true);
    expect(before(summary, articles[0]!)).toBe(true);
    expect(within(articles[0]!).getByText('Cause and etiology')).toBeTruthy();
    expect(screen.getByText('Decision support only — check against your own clinical judgement.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Get differentials' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the service’s reason when it turns the input away', async () => {
    const refusal = await sendTurnedAway('ddx', 'chocolate cake recipe with raspberries');
    expect(refusal.getAttribute('role')).toBe('status');
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    expect(screen.queryByRole('heading', { name: /Possible diagnoses/ })).toBeNull();
  });

  it('asks for a history instead of sending an empty one', () => {
    sendFrom('ddx', '   \n ');
    const problem = screen.getByRole('alert');
    expect(problem.textContent).toBe('Type or paste a clinical history first.');
    expect(screen.getByLabelText('Clinical history').getAttribute('aria-describedby')).toContain(problem.id);
    expect(agentCalls()).toEqual([]);
    type('Clinical history', 'Cat');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('takes a prefilled note, sends it with Ctrl+Enter, and keeps text and answer across visits', async () => {
    const note = 'Cat, 12 years, FN: weight loss despite a good appetite, polyuria and polydipsia, vomiting.';
    const first = render(<ui.AgentPanel agent="ddx" prefill={note} />);
    const field = screen.getByLabelText('Clinical history') as HTMLTextAreaElement;
    expect(field.value).toBe(note);
    expect(document.activeElement).toBe(field);
    fireEvent.keyDown(field, { key: 'Enter', ctrlKey: true });
    await screen.findByRole('heading', { name: 'In short' });
    expect(agentCalls()).toEqual([{ channel: 'agents:ddx', input: { input: note } }]);
    const titles = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(titles.length).toBeGreaterThan(0);

    // Editing keeps the last answer on screen; leaving and coming back keeps both.
    type('Clinical history', `${note} Also drinking a lot.`);
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(titles);
    first.unmount();
    render(<ui.AgentPanel agent="ddx" />);
    expect((screen.getByLabelText('Clinical history') as HTMLTextAreaElement).value).toBe(
      `${note} Also drinking a lot.`,
    );
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(titles);
    expect(screen.getByText(/^Answer to:/).textContent).toContain('Cat, 12 years, FN');

    // Ctrl/Cmd+K lands here again: the field gets the cursor back.
    screen.getByRole('button', { name: 'Copy all' }).focus();
    act(() => ui.useNav.getState().go({ name: 'ddx' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Clinical history'));
  });

  it('arriving from a consult’s note asks at once, once, with its history and examination as plain text, and links back to the consult', async () => {
    const id = await recordThrough(createHandlers(core), 'Misty');
    // The assessment and plan are the vet's conclusions, not signs: they are not sent.
    const note =
      '## Subjective\n\n**Misty**, cat, 9 years: vomiting and weight loss, drinking a lot.\n\n## Assessment\n\nHyperthyroidism less likely.\n\n## Plan\n\nRecheck sooner if Misty becomes lethargic.';
    const consult = { id, patient: 'Misty', note };
    act(() => ui.useNav.getState().go({ name: 'ddx', consult }));
    // Strict mode runs effects twice: the arrival is still asked once.
    render(
      <StrictMode>
        <ui.AgentPanel agent="ddx" consult={consult} />
      </StrictMode>,
    );
    await screen.findByText(/^From the note of Misty, asked/);
    const plain = 'Subjective\n\nMisty, cat, 9 years: vomiting and weight loss, drinking a lot.';
    expect((screen.getByLabelText('Clinical history') as HTMLTextAreaElement).value).toBe(plain);
    expect(sent.filter((s) => s.channel === 'consults:askDdx' || s.channel === 'agents:ddx')).toEqual([
      { channel: 'consults:askDdx', input: { id, input: plain } },
    ]);
    expect(screen.queryByText(/^Answer to:/)).toBeNull();
    expect(await core.answers.list(id)).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Open consult' }));
    expect(ui.useNav.getState().view).toEqual({ name: 'note', id });

    // The consult deleted: the answer stays on screen, no longer linked to it.
    await act(async () => {
      await core.commands.delete(id, core.actors.current());
    });
    await waitFor(() =>
      expect(document.querySelector('.agent-answered')?.textContent).toMatch(/^Answer to: “Subjective Misty, cat/),
    );
    expect(screen.queryByRole('button', { name: 'Open consult' })).toBeNull();
  });

  it('shows a failed call with its message and tries again', async () => {
    render(<ui.AgentPanel agent="ddx" />);
    await act(async () => {
      await core.session.signOut('user');
    });
    type('Clinical history', 'Dog, 3 years, coughing after kennels, otherwise bright');
    fireEvent.click(screen.getByRole('button', { name: 'Get differentials' }));
    const error = await screen.findByRole('alert');
    expect(error.textContent).toMatch(/sign/i);
    expect(screen.queryByRole('heading', { name: 'In short' })).toBeNull();

    const demo = core.appInfo().sandbox!.demo;
    await core.session.signIn(demo.email, demo.password);
    fireEvent.click(within(error).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { name: 'In short' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(agentCalls()).toHaveLength(2);
  });
});

describe('AgentPanel: treatment', () => {
  it('warns when no species is named, and Send anyway shows the service’s reason', async () => {
    render(<ui.AgentPanel agent="treatment" />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Treatment plan');
    const field = screen.getByLabelText('Case details');
    expect(document.activeElement).toBe(field);
    expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toContain(
      'Name the species (dog, cat…)',
    );

    type('Case details', 'How do I treat otitis externa?');
    fireEvent.click(screen.getByRole('button', { name: 'Get treatment plan' }));
    const warning = await screen.findByRole('alert');
    expect(warning.textContent).toContain('No species found');
    expect(agentCalls()).toEqual([
      { channel: 'agents:treatmentPlan', input: { input: 'How do I treat otitis externa?' } },
    ]);

    fireEvent.click(within(warning).getByRole('button', { name: 'Edit case details' }));
    expect(document.activeElement).toBe(field);

    const expected = await core.agents.treatmentPlan('How do I treat otitis externa?', true);
    if (expected.kind !== 'result') throw new Error('expected a result');
    fireEvent.click(within(warning).getByRole('button', { name: 'Send anyway' }));
    await screen.findByText(`The service could not answer this: ${expected.result.reason}`);
    expect(agentCalls()[1]).toEqual({
      channel: 'agents:treatmentPlan',
      input: { input: 'How do I treat otitis externa?', allowWithoutSpecies: true },
    });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryAllByRole('article')).toHaveLength(0);
  });

  it('shows one card per plan with every field heading', async () => {
    sendFrom('treatment', 'Dog, 6 years, itchy ears, head shaking, otitis externa');
    const inShort = await screen.findByRole('heading', { name: 'In short' });
    expect(screen.queryByRole('alert')).toBeNull();
    const [card] = screen.getAllByRole('article');
    expect(within(card!).getByRole('heading', { level: 3 }).textContent).toBe('Otitis externa');
    expect(within(card!).getByText('Medications')).toBeTruthy();
    expect(within(card!).getByText('Dietary management')).toBeTruthy();
    expect(within(card!).getByText('Owner education')).toBeTruthy();
    expect(before(inShort, card!)).toBe(true);
    expect(screen.getByRole('heading', { name: 'Treatment plans (1)' })).toBeTruthy();
  });

  it('with a weight in the case, each dose per kg has its total beside it, said to be the app’s own arithmetic', async () => {
    sendFrom('treatment', 'Dog, 6 years, 32 kg Labrador: how do I treat acute gastroenteritis?');
    await screen.findByRole('heading', { name: 'In short' });
    const [card] = screen.getAllByRole('article');
    const medications = within(card!).getByText('Medications').nextElementSibling!;
    expect(medications.textContent).toContain('1 mg/kg (= 32 mg for 32 kg)');
    expect(medications.querySelector('.dose-total')?.textContent).toBe(' (= 32 mg for 32 kg)');
    expect(screen.getByRole('note').textContent).toBe(
      'Totals for 32 kg are worked out by this app from the doses per kg, not by the service: check each against the formulary before use.',
    );
    cleanup();

    // No weight given: the doses stand as the service wrote them.
    sendFrom('treatment', 'Dog, 6 years: how do I treat acute gastroenteritis?');
    await waitFor(() => expect(screen.getAllByRole('article').length).toBeGreaterThan(0));
    await screen.findByText(/Answer to: “Dog, 6 years: how do I treat/);
    expect(document.querySelector('.dose-total')).toBeNull();
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('replaces an earlier answer with a new warning', async () => {
    sendFrom('treatment', 'Dog, 6 years, itchy ears, head shaking, otitis externa');
    await screen.findByRole('heading', { name: 'In short' });
    expect(screen.getAllByRole('article').length).toBeGreaterThan(0);
    type('Case details', 'How do I treat otitis externa?');
    fireEvent.click(screen.getByRole('button', { name: 'Get treatment plan' }));
    const warning = await screen.findByRole('alert');
    expect(warning.textContent).toContain('No species found');
    expect(screen.queryByRole('heading', { name: 'In short' })).toBeNull();
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    expect(screen.queryByLabelText('Answer')).toBeNull();
  });

  it('forgets the case when the session ends', async () => {
    render(<ui.AgentPanel agent="treatment" />);
    type('Case details', 'Cat, 4 years, ringworm');
    await act(async () => {
      await core.session.signOut('user');
    });
    expect((screen.getByLabelText('Case details') as HTMLTextAreaElement).value).toBe('');
  });
});

describe('AgentPanel: medication', () => {
  const QUESTION = 'Meloxicam, dog, 20 kg, osteoarthritis';

  it('sends the drug and species, shows plain English first, then a card per drug with its dosing by species first', async () => {
    const expected = await core.agents.medication(QUESTION);
    expect(expected.status).toBe(true);
    expect(expected.medications.length).toBeGreaterThan(0);
    render(<ui.AgentPanel agent="medication" />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Medications');
    const field = screen.getByLabelText('Drug and species');
    expect(document.activeElement).toBe(field);

    type('Drug and species', QUESTION);
    fireEvent.keyDown(field, { key: 'Enter', ctrlKey: true });
    const inShort = await screen.findByRole('heading', { name: 'In short' });
    expect(agentCalls()).toEqual([{ channel: 'agents:medication', input: { input: QUESTION } }]);
    const concise = screen.getByText(conciseText(expected.concise));
    const summary = screen.getByText(summaryParagraphs(expected.summary, expected.concise)[0]!);
    const cards = screen.getAllByRole('article');
    expect(cards.map((a) => within(a).getByRole('heading', { level: 3 }).textContent)).toEqual(
      expected.medications.map((d) => d.label),
    );
    expect(before(inShort, concise) && before(concise, summary) && before(summary, cards[0]!)).toBe(true);
    expect(screen.getByRole('heading', { name: `Drugs (${expected.medications.length})` })).toBeTruthy();

    // Every field the service gave, under its heading from the shared list; dosing comes first
    // after the drug's name and is set apart.
    const first = expected.medications[0]!;
    const headings = within(cards[0]!)
      .getAllByRole('term')
      .map((t) => t.textContent);
    const given = MEDICATION_FIELDS.filter(
      (f) => first[f.key] !== undefined && first[f.key]!.trim().toLowerCase() !== first.label.trim().toLowerCase(),
    );
    expect([...headings].sort()).toEqual(given.map((f) => f.heading).sort());
    const dosing = MEDICATION_FIELDS.find((f) => f.wire === 'dosing_by_species')!;
    expect(first[dosing.key]).toBeTruthy();
    const dosingTerm = within(cards[0]!).getByText(dosing.heading);
    expect(headings.indexOf(dosing.heading)).toBeLessThanOrEqual(1);
    expect(dosingTerm.parentElement!.className).toContain('result-field-prominent');
    // The dog asked about comes first, with its totals for 20 kg.
    const dosingText = dosingTerm.nextElementSibling!.textContent!;
    expect(dosingText.startsWith('Dog: 0.2 mg/kg (= 4 mg for 20 kg)')).toBe(true);
    expect(screen.getByRole('heading', { name: 'Summary' })).toBeTruthy();
  });

  it('for a cat with a weight, puts the cat’s dose first with its totals and leaves the dog’s alone', async () => {
    sendFrom('medication', 'meloxicam cat 4.2 kg');
    const [card] = await screen.findAllByRole('article');
    const dosing = within(card!).getByText('Dosing by species').nextElementSibling!;
    const text = dosing.textContent!;
    expect(text.startsWith('Cat: 0.3 mg/kg (= 1.26 mg for 4.2 kg) SC once')).toBe(true);
    expect(text).toContain('0.05 mg/kg (= 0.21 mg for 4.2 kg)');
    const dog = text.slice(text.indexOf('Dog:'));
    expect(text.indexOf('Dog:')).toBeGreaterThan(0);
    expect(dog).not.toContain('(=');
    expect(screen.getByRole('note').textContent).toContain('Totals for 4.2 kg');
    expect(screen.getByText(/Meloxicam for a 4\.2 kg cat: 1\.26 mg/)).toBeTruthy();

    // Copy all writes the card as it is shown: the cat first, with its totals.
    const copied: string[] = [];
    const clipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (t: string) => void copied.push(t) },
    });
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Copy all' }));
      await waitFor(() => expect(copied).toHaveLength(1));
    } finally {
      if (clipboard) Object.defineProperty(navigator, 'clipboard', clipboard);
      else delete (navigator as { clipboard?: unknown }).clipboard;
    }
    expect(copied[0]).toContain('Dosing by species: Cat: 0.3 mg/kg (= 1.26 mg for 4.2 kg) SC once');
    expect(copied[0]).toMatch(/\(= 0\.21 mg for 4\.2 kg\)[^\n]* Dog: 0\.2 mg\/kg PO/);
  });

  it('refuses an empty question with a message, sending nothing', () => {
    sendFrom('medication', '  ');
    const problem = screen.getByRole('alert');
    expect(problem.textContent).toBe('Type or paste the drug and the species first (for example: meloxicam, dog).');
    expect(screen.getByLabelText('Drug and species').getAttribute('aria-invalid')).toBe('true');
    expect(agentCalls()).toEqual([]);
  });

  it('shows the service’s reason when the question names no drug', async () => {
    await sendTurnedAway('medication', 'What should my dog eat after surgery?');
    expect(screen.queryAllByRole('article')).toHaveLength(0);
  });

  it('shows main’s refusal of a question without a species, with nothing to try again', async () => {
    sendFrom('medication', 'Meloxicam dose?');
    const refusal = await screen.findByRole('alert');
    expect(refusal.textContent).toMatch(/species/);
    expect(within(refusal).queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'In short' })).toBeNull();
  });

  it('is one sidebar stop like the other panels, and forgets the question when the session ends', async () => {
    render(<ui.AgentPanel agent="medication" />);
    type('Drug and species', 'Amoxicillin, cat');
    screen.getByRole('button', { name: 'Look up medication' }).focus();
    act(() => ui.useNav.getState().go({ name: 'medication' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Drug and species'));
    await act(async () => {
      await core.session.signOut('user');
    });
    expect((screen.getByLabelText('Drug and species') as HTMLTextAreaElement).value).toBe('');
  });
});

describe('AgentPanel: an answer as it arrives', () => {
  // jsdom lays nothing out and has neither scrollIntoView nor matchMedia: stand-ins that keep
  // what the panel asks of them, and say whether the vet asked for less motion.
  const scrolled: { element: Element; options: ScrollIntoViewOptions | undefined }[] = [];
  let reducedMotion = false;
  beforeAll(() => {
    Element.prototype.scrollIntoView = function (this: Element, options?: boolean | ScrollIntoViewOptions) {
      scrolled.push({ element: this, options: typeof options === 'object' ? options : undefined });
    };
    window.matchMedia = ((query: string) => ({
      matches: query === '(prefers-reduced-motion: reduce)' && reducedMotion,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    })) as unknown as typeof window.matchMedia;
  });
  afterAll(() => {
    delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
    delete (window as { matchMedia?: unknown }).matchMedia;
  });
  beforeEach(() => {
    scrolled.length = 0;
    reducedMotion = false;
  });
  /** The panel's polite announcement of an answer that arrived. */
  const arrivalSaid = () => document.querySelector('.agent-arrival')!;

  it('sent with the button, the treatment plan is scrolled into view smoothly and takes the focus, said once', async () => {
    render(<ui.AgentPanel agent="treatment" />);
    type('Case details', 'Dog, 6 years, itchy ears, head shaking, otitis externa');
    const send = screen.getByRole('button', { name: 'Get treatment plan' });
    send.focus();
    fireEvent.click(send);
    const answer = await screen.findByRole('region', { name: 'Answer' });
    await waitFor(() => expect(scrolled.map((s) => s.element)).toEqual([answer]));
    expect(scrolled[0]!.options).toMatchObject({ behavior: 'smooth', block: 'start' });
    // The keyboard goes on from the answer; its region is read out as it takes the focus, so
    // nothing more is announced.
    expect(document.activeElement).toBe(answer);
    expect(arrivalSaid().textContent).toBe('');
  });

  it('while the vet is typing in the field, the answer is brought into view without motion (when asked) and announced, leaving the cursor where it is', async () => {
    reducedMotion = true;
    render(<ui.AgentPanel agent="treatment" />);
    const field = screen.getByLabelText('Case details');
    type('Case details', 'Dog, 6 years, 32 kg Labrador: how do I treat acute gastroenteritis?');
    field.focus();
    fireEvent.keyDown(field, { key: 'Enter', ctrlKey: true });
    const answer = await screen.findByRole('region', { name: 'Answer' });
    await waitFor(() => expect(scrolled.map((s) => s.element)).toEqual([answer]));
    expect(scrolled[0]!.options).toMatchObject({ behavior: 'auto' });
    expect(document.activeElement).toBe(field);
    const said = arrivalSaid();
    expect(said.getAttribute('aria-live')).toBe('polite');
    expect(said.textContent).toMatch(/^Treatment plan ready: \d+ plans?\. It is below the question\.$/);

    // Shown again on coming back, it is not news: nothing scrolls, nothing is said.
    cleanup();
    scrolled.length = 0;
    render(<ui.AgentPanel agent="treatment" />);
    expect(screen.getByRole('region', { name: 'Answer' })).toBeTruthy();
    expect(scrolled).toEqual([]);
    expect(arrivalSaid().textContent).toBe('');
  });
});
