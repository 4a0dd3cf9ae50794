// The note as the app holds it: sections with a heading and a text, read from the service's
// `categories_output` or `rtf_output` (`GET /scribe/get/{id}`), and what it is copied or exported as.

export interface NoteSection {
  /** Empty for text that comes before the first heading. */
  heading: string;
  text: string;
}

/** What goes on top of a copied or exported note: the patient and the consult's local date. */
export interface NoteMeta {
  patientName: string | null;
  /** `YYYY-MM-DD`, the consult's local date. */
  date: string | null;
  /** The template's name, when known. */
  templateName?: string | null;
}
