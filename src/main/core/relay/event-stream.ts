// Reads a server-sent event stream (the relay's GET /events) into its events. Written by hand
// because the one client Node offers (undici's EventSource) cannot send an Authorization header
// and hides the status and body of a refusal, both of which the relay's protocol uses; the
// format itself is a few lines of the HTML standard's "event stream interpretation".

export interface StreamEvent {
  /** `message` when the stream names none. */
  event: string;
  data: string;
  /** The `id:` field, when the event carried one. */
  id: string | null;
}

/** Cuts a stream's text into events as its chunks arrive; a chunk may end anywhere. */
export class EventStreamReader {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | null = null;
  private readonly decoder = new TextDecoder();

  /** The events completed by this chunk. */
  push(chunk: Uint8Array): StreamEvent[] {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    const events: StreamEvent[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      // A lone '\r' at the end may be the first half of '\r\n': wait for the next chunk.
      if (end < 0 || (end === this.buffer.length - 1 && this.buffer.endsWith('\r'))) break;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith('\r\n', end) ? 2 : 1));
      const done = this.line(line);
      if (done) events.push(done);
    }
    // A line longer than any the relay writes is not kept growing.
    if (this.buffer.length > 1_000_000) throw new Error('The relay sent a line over 1 MB.');
    return events;
  }

  private line(line: string): StreamEvent | null {
    if (line === '') {
      if (this.data.length === 0 && this.event === '') return null;
      const done = { event: this.event || 'message', data: this.data.join('\n'), id: this.id };
      this.event = '';
      this.data = [];
      this.id = null;
      return done;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return null;
  }
}
