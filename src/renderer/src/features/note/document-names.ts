// What each document of a consult is called: on its tab, in its actions ("Copy discharge
// instructions") and in the line that says another document's edit is not in it.
import { createContext } from 'react';
import type { DocumentInfo, JobInfo } from '../../../../shared/jobs.ts';

/** The key of the consult's note among its documents (the others go by their id). */
export const NOTE_KEY = 'note';

type TemplateName = (id: string) => string | null;

/** The tab's title: the template's name given when it was asked for, else the list's, else its place. */
export function documentLabel(document: DocumentInfo, index: number, templateName: TemplateName): string {
  return document.name ?? templateName(document.templateId) ?? `Document ${index + 2}`;
}

/** The tab titles of a consult's note and documents, by key; a title given twice is numbered. */
export function documentLabels(job: JobInfo, templateName: TemplateName): Map<string, string> {
  const labels = new Map<string, string>([[NOTE_KEY, templateName(job.templateId) ?? 'Note']]);
  const seen = new Map<string, number>();
  job.documents.forEach((d, i) => {
    const label = documentLabel(d, i, templateName);
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    labels.set(d.id, n === 1 ? label : `${label} (${n})`);
  });
  return labels;
}

/**
 * A title as words in a sentence: "Discharge instructions" -> "discharge instructions", an
 * initialism kept ("SOAP"). The note's title gets "note" after it unless it has it.
 */
export function inSentence(label: string, isNote: boolean): string {
  const words = /^[A-Z][a-z]/.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label;
  return isNote && !/\bnote$/i.test(words) ? `${words} note` : words;
}

/** The names, in a sentence, of the consult's documents the vet edited, other than `key`'s. */
export function editedElsewhere(job: JobInfo, key: string, labels: Map<string, string>): string[] {
  const edited = [...(job.edited ? [NOTE_KEY] : []), ...job.documents.filter((d) => d.edited).map((d) => d.id)].filter(
    (k) => k !== key,
  );
  return edited.map((k) => inSentence(labels.get(k) ?? 'document', k === NOTE_KEY));
}

/** Shows a document's tab (one just asked for again); nothing where the consult has no tabs. */
export const ShowDocumentContext = createContext<(key: string) => void>(() => undefined);
