// The result cards with real answers of the sandbox's agents, parsed by the core as the
// window receives them.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import {
  DDX_FIELDS,
  TREATMENT_FIELDS,
  type DdxResult,
  type TreatmentPlanResult,
} from '../../../../src/shared/service/index.ts';
import { windowWithEngine } from '../../support/window.ts';
import * as cards from '../../../../src/renderer/src/features/agents/result-cards.tsx';
import * as text from '../../../../src/renderer/src/features/agents/answer-text.ts';
import * as doses from '../../../../src/renderer/src/features/agents/dose-totals.tsx';
import * as agents from '../../../../src/renderer/src/features/agents/agents.tsx';

let core: AppCore;
let ddx: DdxResult;
let plan: TreatmentPlanResult;

beforeAll(async () => {
  ({ core } = await windowWithEngine({ signIn: true }));
  ddx = await core.agents.ddx('Dog, 6 years, vomiting and diarrhoea for 3 days after eating rubbish, lethargic');
  const answer = await core.agents.treatmentPlan('Dog, 6 years, itchy ears, head shaking, otitis externa');
  if (answer.kind !== 'result') throw new Error(`expected a treatment plan, got ${answer.kind}`);
  plan = answer.result;
}, 30_000);

afterEach(cleanup);
afterAll(async () => {
  await core.stop();
});

function fieldHeadings(card: HTMLElement): string[] {
  return within(card)
    .queryAllByRole('term')
    .map((dt) => dt.textContent ?? '');
}

describe('ResultCards', () => {
  it('renders one article per diagnosis with every field under its heading, in order', () => {
    expect(ddx.status).toBe(true);
    expect(ddx.diagnoses.length).toBeGreaterThan(1);
    render(<cards.ResultCards items={ddx.diagnoses} fields={DDX_FIELDS} fallbackTitle="Diagnosis" />);
    const articles = screen.getAllByRole('article');
    expect(articles).toHaveLength(ddx.diagnoses.length);
    ddx.diagnoses.forEach((diagnosis, i) => {
      const card = articles[i]!;
      expect(within(card).getByRole('heading', { level: 3 }).textContent).toBe(diagnosis.label);
      expect(card.getAttribute('aria-labelledby')).toBe(within(card).getByRole('heading', { level: 3 }).id);
      // The field that only repeats the card's title (the diagnosis' name) is not shown again.
      const repeats = (f: (typeof DDX_FIELDS)[number]) =>
        diagnosis[f.key]?.trim().toLowerCase() === diagnosis.label.trim().toLowerCase();
      expect(DDX_FIELDS.some(repeats), 'the service names the diagnosis in a field too').toBe(true);
      expect(fieldHeadings(card)).toEqual(DDX_FIELDS.filter((f) => !repeats(f)).map((f) => f.heading));
      const values = within(card)
        .getAllByRole('definition')
        .map((dd) => dd.textContent);
      expect(values).toEqual(DDX_FIELDS.filter((f) => !repeats(f)).map((f) => diagnosis[f.key]));
      expect(values).not.toContain(diagnosis.label);
    });
  });

  it('renders every treatment field heading for a real plan', () => {
    expect(plan.plans.length).toBeGreaterThan(0);
    render(<cards.ResultCards items={plan.plans} fields={TREATMENT_FIELDS} />);
    const card = screen.getAllByRole('article')[0]!;
    const first = plan.plans[0]!;
    const title = within(card).getByRole('heading', { level: 3 }).textContent ?? '';
    expect(fieldHeadings(card)).toEqual(
      TREATMENT_FIELDS.filter(
        (f) => first[f.key] !== undefined && first[f.key]!.trim().toLowerCase() !== title.trim().toLowerCase(),
      ).map((f) => f.heading),
    );
    expect(fieldHeadings(card).length).toBeGreaterThan(5);
    expect(within(card).getByText('Medications').nextElementSibling?.textContent).toBe(plan.plans[0]!.medications);
  });

  it("shows the formulary's drugs found by brand name, the asked-for species' dose first with its total", async () => {
    const asked = 'Vetmedin for a 20 kg dog';
    const answer = await core.agents.medication(asked);
    const extras = doses.medicationDoses('dosingBySpecies')(asked)!;
    render(
      <cards.ResultCards
        items={answer.medications}
        fields={agents.MEDICATION_CARD_FIELDS}
        renderValue={extras.renderValue}
      />,
    );
    const card = screen.getByRole('article');
    expect(within(card).getByRole('heading', { level: 3 }).textContent).toMatch(/^Pimobendan/);
    expect(within(card).getByText('Dosing by species').nextElementSibling?.textContent).toMatch(
      /^Dog: 0\.2-0\.3 mg\/kg \(= 4–6 mg for 20 kg\) PO every 12 hours.* Cat: 0\.25 mg\/kg PO/,
    );
    cleanup();
    const cat = 'NexGard for a cat';
    const notFor = await core.agents.medication(cat);
    render(
      <cards.ResultCards
        items={notFor.medications}
        fields={agents.MEDICATION_CARD_FIELDS}
        renderValue={doses.medicationDoses('dosingBySpecies')(cat)!.renderValue}
      />,
    );
    expect(screen.getByRole('heading', { level: 3 }).textContent).toMatch(/^Afoxolaner/);
    expect(screen.getByText('Dosing by species').nextElementSibling?.textContent).toMatch(/^Cat: not for cats/);
  });

  it('hides the fields a diagnosis lacks and names an unlabelled card', () => {
    const [first, second] = ddx.diagnoses;
    const { prognosis: _p, commonlyConfusedWith: _c, ...partial } = first!;
    const unnamed = { ...second!, label: '', name: undefined };
    render(<cards.ResultCards items={[partial, unnamed]} fields={DDX_FIELDS} fallbackTitle="Diagnosis" />);
    const [a, b] = screen.getAllByRole('article');
    expect(fieldHeadings(a!)).toEqual(
      DDX_FIELDS.filter(
        (f) => f.key !== 'prognosis' && f.key !== 'commonlyConfusedWith' && partial[f.key] !== partial.label,
      ).map((f) => f.heading),
    );
    expect(within(a!).queryByText('Prognosis')).toBeNull();
    expect(fieldHeadings(b!)).not.toContain('Diagnosis');
    expect(fieldHeadings(b!)).toContain('Prognosis');
    // No label and no name: the first field with a value titles the card.
    expect(within(b!).getByRole('heading', { level: 3 }).textContent).toBe(second!.symptomsClinicalSigns);
    expect(cards.cardTitle({ label: '' }, DDX_FIELDS, 2, 'Diagnosis')).toBe('Diagnosis 3');
  });

  it('writes the whole answer as plain text for pasting', () => {
    const all = text.answerText(ddx, 'Possible diagnoses', ddx.diagnoses, DDX_FIELDS, 'Diagnosis');
    const paragraphs = text.summaryParagraphs(ddx.summary, ddx.concise);
    expect(paragraphs.length).toBeGreaterThan(1);
    expect(all.startsWith(`In short\n${text.conciseText(ddx.concise)}\n\nSummary\n${paragraphs.join('\n\n')}`)).toBe(
      true,
    );
    for (const d of ddx.diagnoses)
      expect(all).toContain(`${d.label}\nSymptoms and clinical signs: ${d.symptomsClinicalSigns}`);
    expect(text.summaryText({ concise: 'One line.' })).toBe('In short\nOne line.');
  });

  it('says the concise answer once, without a label of its own, and splits a long summary into paragraphs', () => {
    expect(text.conciseText('In short: Gastroenteritis is most likely.')).toBe('Gastroenteritis is most likely.');
    expect(text.summaryText({ concise: 'In short: One line.' }).match(/In short/g)).toHaveLength(1);
    const long =
      'From the signs described, the most likely cause is dietary indiscretion. It is common in dogs that get into the bin. Pancreatitis can look similar and may need ruling out. Foreign body is another. To confirm it: abdominal radiographs if vomiting persists. Outlook: good with supportive care.';
    expect(text.summaryParagraphs(long)).toEqual([
      'From the signs described, the most likely cause is dietary indiscretion. It is common in dogs that get into the bin.',
      'Pancreatitis can look similar and may need ruling out. Foreign body is another.',
      'To confirm it: abdominal radiographs if vomiting persists.',
      'Outlook: good with supportive care.',
    ]);
    // The service's own paragraphs are kept; the concise answer repeated at its start is dropped.
    expect(text.summaryParagraphs('Likely otitis.\n\nClean the ears.\nRecheck in 2 weeks.', 'Likely otitis.')).toEqual([
      'Clean the ears.',
      'Recheck in 2 weeks.',
    ]);
    expect(text.summaryParagraphs('   ')).toEqual([]);
  });
});
