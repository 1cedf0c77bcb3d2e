import { vi } from 'vitest';

/**
 * An XMLHttpRequest stand-in for upload tests: records each request (method, url, headers, body)
 * and lets the test report progress and answer by hand. Sent requests are in `FakeXhr.sent`.
 */
export class FakeXhr {
  static sent: FakeXhr[] = [];

  static get last(): FakeXhr {
    const xhr = FakeXhr.sent[FakeXhr.sent.length - 1];
    if (!xhr) throw new Error('No request was sent');
    return xhr;
  }

  method = '';
  url = '';
  readonly headers: Record<string, string> = {};
  body: unknown = null;
  withCredentials = false;
  status = 0;
  statusText = '';
  responseText = '';
  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
  }

  abort() {
    this.onabort?.();
  }

  /** Upload progress: `loaded` of `total` bytes sent. */
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }

  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = body === undefined ? '' : JSON.stringify(body);
    this.onload?.();
  }

  /** The multipart body as [name, value] pairs (files by name). */
  fields(): Array<[string, string]> {
    if (!(this.body instanceof FormData)) return [];
    return [...this.body.entries()].map(([name, value]) => [name, typeof value === 'string' ? value : `file:${value.name}`]);
  }
}

export function installFakeXhr() {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
}
