// The sandbox's note templates (row 5) and the note a completed scribe job carries (row 9).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingStore } from '../../src/main/core/recordings.ts';
import { buildNote, formatDuration, formatSize } from '../../src/sandbox/note.ts';
import { findTemplate, TEMPLATES } from '../../src/sandbox/templates.ts';
import { webmDurationSeconds } from '../../src/sandbox/uploads.ts';
import { makeRecording, recorderChunks } from '../integration/support/core.ts';
import { fakeWebm } from '../integration/support/http.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('TEMPLATES', () => {
  it('holds the common consult types, SOAP first', () => {
    expect(TEMPLATES.length).toBeGreaterThanOrEqual(8);
    expect(TEMPLATES[0]?.name).toBe('SOAP');
    expect(TEMPLATES.map((t) => t.name)).toEqual(
      expect.arrayContaining(['Wellness exam', 'Sick visit', 'Dental procedure', 'Surgery report', 'Discharge instructions', 'Vaccination visit', 'End-of-life consult']),
    );
  });

  it('gives each a unique UUID, a unique name, a description and sections', () => {
    const ids = TEMPLATES.map((t) => t.public_id);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(TEMPLATES.length);
    expect(new Set(TEMPLATES.map((t) => t.name.toLowerCase())).size).toBe(TEMPLATES.length);
    for (const t of TEMPLATES) {
      expect(t.description.length, t.name).toBeGreaterThan(20);
      expect(t.sections.length, t.name).toBeGreaterThanOrEqual(3);
      expect(new Set(t.sections).size, t.name).toBe(t.sections.length);
    }
  });

  it('finds a template by its id, and nothing for an unknown id', () => {
    for (const t of TEMPLATES) expect(findTemplate(t.public_id)).toBe(t);
    expect(findTemplate('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(findTemplate('')).toBeUndefined();
  });
});

describe('formatDuration and formatSize', () => {
  it.each([
    [0, '0 s'],
    [42, '42 s'],
    [41.6, '42 s'],
    [60, '1 min'],
    [252, '4 min 12 s'],
    [3900, '1 h 5 min'],
    [3723, '1 h 2 min 3 s'],
  ])('%s seconds is "%s"', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it.each([
    [1, '1 byte'],
    [999, '999 bytes'],
    [1000, '1 KB'],
    [64_000, '64 KB'],
    [512_345, '512.3 KB'],
    [999_999, '1 MB'],
    [1_536_000, '1.5 MB'],
    [2_000_000_000, '2 GB'],
  ])('%s bytes is "%s"', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });
});

describe('buildNote', () => {
  const soap = TEMPLATES[0]!;
  const facts = {
    recordedAt: '2025-03-01T14:03:22.000Z',
    durationSeconds: 252,
    sizeBytes: 512_000,
    contentType: 'audio/webm;codecs=opus',
    fileName: 'consult-bella.webm',
    sessionName: 'Bella, vomiting',
  };

  it('says first that it is a sandbox note made without speech recognition, from the recording\'s facts', () => {
    const lines = buildNote(soap, facts).split('\n');
    expect(lines[0]).toBe('Sandbox note — generated without speech recognition from a 4 min 12 s audio/webm recording (512 KB).');
    expect(lines).toContain('# SOAP');
    expect(lines).toContain('Consult: Bella, vomiting');
    expect(lines).toContain('Recording: consult-bella.webm, received 2025-03-01 14:03 UTC');
  });

  it('leaves out what it does not know', () => {
    const note = buildNote(soap, { sizeBytes: 64_000, contentType: 'audio/wav' });
    expect(note.split('\n')[0]).toBe('Sandbox note — generated without speech recognition from an audio/wav recording (64 KB).');
    expect(note).not.toMatch(/Consult:|Recording:|undefined|NaN/);
  });

  it('has one heading per section, in order, each followed by text', () => {
    for (const template of TEMPLATES) {
      const note = buildNote(template, facts);
      const lines = note.split('\n');
      const headings = lines.filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
      expect(headings, template.name).toEqual(template.sections);
      for (const section of template.sections) {
        const text = lines[lines.indexOf(`## ${section}`) + 1] ?? '';
        expect(text, `${template.name} / ${section}`).toMatch(/^[A-Z].{30,}\.$/);
      }
      expect(note).not.toMatch(/undefined|NaN/);
    }
  });

  it('writes text suited to the section, mentioning the recording where natural', () => {
    const note = buildNote(soap, facts);
    const after = (heading: string): string => note.split(`## ${heading}\n`)[1]?.split('\n')[0] ?? '';
    expect(after('Subjective')).toMatch(/owner's account of the history/);
    expect(after('Subjective')).toContain('4 min 12 s recording');
    expect(after('Objective')).toMatch(/examination findings/i);
    expect(after('Plan')).toMatch(/treatment/i);
    const custom = buildNote({ name: 'Custom', sections: ['Nutrition'] }, facts);
    expect(custom).toMatch(/## Nutrition\nThe nutrition part of the consult would be written here/);
  });

  it('is the same for the same template and facts, and differs when the facts do', () => {
    expect(buildNote(soap, facts)).toBe(buildNote(soap, { ...facts }));
    expect(buildNote(soap, { ...facts, sizeBytes: 1_536_000 })).toContain('(1.5 MB)');
    expect(buildNote(soap, { ...facts, durationSeconds: 42 })).toContain('from a 42 s audio/webm recording');
  });
});

describe('the duration of an uploaded WebM', () => {
  it('is read from the Duration the app writes when a recording ends', async () => {
    const store = new RecordingStore({ dir: mkdtempSync(join(tmpdir(), 'vet-scribe-note-')) });
    const id = await makeRecording(store);
    const head = readFileSync(store.audioPath(id)).subarray(0, 4096);
    expect(webmDurationSeconds(head)).toBeCloseTo(4.98, 2);
  });

  it('is unknown for a recording without one, or bytes that are not EBML', () => {
    // MediaRecorder writes no Duration: the raw chunks of a recording never finished.
    expect(webmDurationSeconds(Buffer.concat(recorderChunks()).subarray(0, 4096))).toBeUndefined();
    expect(webmDurationSeconds(fakeWebm())).toBeUndefined();
    expect(webmDurationSeconds(Buffer.alloc(0))).toBeUndefined();
  });
});
