import * as net from 'node:net';
import type { TestApp } from './harness';

/** A response as the server wrote it on the wire: what HTTP clients hide (a body sent to HEAD). */
export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** Every byte after the header block, as text (chunk framing included). */
  body: string;
}

/** Sends one request over a fresh connection (closed by the server after answering) and reads all of it. */
export function rawRequest(app: TestApp, method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(app.baseUrl);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  const socket = net.connect(Number(port), hostname, () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
  return responseOn(socket);
}

/** The response the server writes on `socket` before closing it. */
function responseOn(socket: net.Socket): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        resolve(parseResponse(Buffer.concat(chunks).toString('utf8')));
      } catch (err) {
        reject(err);
      }
    });
  });
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

function parseResponse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete response: ${JSON.stringify(text)}`);
  const [statusLine, ...headerLines] = text.slice(0, end).split('\r\n');
  const parsed: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    parsed[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers: parsed, body: text.slice(end + 4) };
}

/**
 * Sends requests at the same moment: every connection is opened first, then all of them are
 * written in one go, so the server reads them in the same turn of its event loop.
 */
export async function rawRequestsTogether(app: TestApp, requests: RawRequest[]): Promise<RawResponse[]> {
  const { hostname, port } = new URL(app.baseUrl);
  const sockets = await Promise.all(
    requests.map(
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(Number(port), hostname, () => resolve(socket));
          socket.on('error', reject);
        }),
    ),
  );
  const answers = sockets.map(responseOn);
  // Time for the server to accept every connection before any request arrives.
  await new Promise((resolve) => setTimeout(resolve, 50));
  requests.forEach((r, i) => {
    const body = r.body === undefined ? '' : JSON.stringify(r.body);
    const headers = { Host: `${hostname}:${port}`, Connection: 'close', 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), ...r.headers };
    const head = [`${r.method} ${r.path} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
    sockets[i].write(`${head}\r\n\r\n${body}`);
  });
  return Promise.all(answers);
}
