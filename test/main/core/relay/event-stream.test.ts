// The relay's event stream read as the HTML standard has it, whatever the chunks: a line or a
// character cut between two chunks, CRLF, CR or LF line ends, comments (the keep-alive), data
// over several lines, an id kept with its event, a stream's first event with no name.
import { describe, expect, it } from 'vitest';
import { EventStreamReader } from '../../../../src/main/core/relay/event-stream.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('reading an event stream', () => {
  it('gives each event once it is complete, however the stream is cut', () => {
    const text =
      ': keep-alive\n\nevent: ready\ndata: {"organization":"org-1","last_id":0}\n\n' +
      'id: 7\r\nevent: scribe\r\ndata: {"id":7,\r\ndata: "status":"scribed","name":"Bélla"}\r\n\r\n' +
      'data: plain\r\rid: 8\nevent: token-expired\ndata: {}\n\n';
    const whole = new EventStreamReader().push(bytes(text));
    const encoded = bytes(text);
    const reader = new EventStreamReader();
    const cut = [];
    for (let i = 0; i < encoded.length; i++) cut.push(...reader.push(encoded.slice(i, i + 1)));
    expect(cut).toEqual(whole);
    expect(whole).toEqual([
      { event: 'ready', data: '{"organization":"org-1","last_id":0}', id: null },
      { event: 'scribe', data: '{"id":7,\n"status":"scribed","name":"Bélla"}', id: '7' },
      { event: 'message', data: 'plain', id: null },
      { event: 'token-expired', data: '{}', id: '8' },
    ]);
  });

  it('keeps nothing of a comment, and refuses a line that never ends', () => {
    const reader = new EventStreamReader();
    expect(reader.push(bytes(': keep-alive\n\n: keep-alive\n\n'))).toEqual([]);
    expect(() => reader.push(bytes('data: ' + 'x'.repeat(1_100_000)))).toThrow(/over 1 MB/);
  });
});
