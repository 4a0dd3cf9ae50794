// What of a note the differentials are asked from: its history and examination, never the
// vet's own conclusions (assessment, plan) or a disclaimer, which the agent would read as signs.
import { describe, expect, it } from 'vitest';
import { historyAndExamination } from '../../../src/shared/note/index.ts';

const SOAP = [
  '## Example note',
  '',
  'Example note: the sandbox does not listen to the audio.',
  '',
  '## Subjective',
  '',
  'Bella has vomited three times since yesterday evening.',
  '',
  '## Objective',
  '',
  'Weight 32.4 kg. Mild discomfort on cranial abdominal palpation.',
  '',
  '## Assessment',
  '',
  'Acute vomiting, most likely gastritis. Foreign body less likely but not excluded.',
  '',
  '## Plan',
  '',
  'Maropitant 1 mg/kg SC. Recheck sooner if Bella becomes lethargic.',
].join('\n');

describe('the history and examination of a note', () => {
  it('keeps the subjective and objective parts, and leaves out the assessment, plan and disclaimer', () => {
    expect(historyAndExamination(SOAP)).toBe(
      '## Subjective\n\nBella has vomited three times since yesterday evening.\n\n## Objective\n\nWeight 32.4 kg. Mild discomfort on cranial abdominal palpation.',
    );
  });

  it("reads other templates' headings for the same parts", () => {
    const sick = [
      '## Presenting complaint\n\nLame left hind for 4 days.',
      '## History\n\nBegan after running in the park.',
      '## Physical examination\n\nEffusion at the left stifle.',
      '## Differential diagnoses\n\n1. Cranial cruciate ligament injury.',
      '## Diagnostics\n\nPositive cranial drawer.',
      '## Treatment\n\nMeloxicam 0.1 mg/kg PO.',
      '## Client communication\n\nOptions explained.',
    ].join('\n\n');
    expect(historyAndExamination(sick)).toBe(
      '## Presenting complaint\n\nLame left hind for 4 days.\n\n## History\n\nBegan after running in the park.\n\n## Physical examination\n\nEffusion at the left stifle.\n\n## Diagnostics\n\nPositive cranial drawer.',
    );
  });

  it('sends what is not a conclusion when no heading names a history or an examination, and a note without headings whole', () => {
    const odd =
      '## Example note\n\nAn example.\n\n## Quality of life\n\nStruggles to rise.\n\n## Decision\n\nEuthanasia agreed.';
    expect(historyAndExamination(odd)).toBe('## Quality of life\n\nStruggles to rise.');
    expect(historyAndExamination('Dog, vomiting since Monday.')).toBe('Dog, vomiting since Monday.');
  });
});
