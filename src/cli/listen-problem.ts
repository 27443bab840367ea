/**
 * Node, Deno and Bun each refuse a port in use or an address that is not this machine's
 * with an error of their own wording but the same `code`: this turns that code into one
 * sentence naming the option that fixes it, in place of `listen EADDRINUSE … 127.0.0.1:3000`.
 */
import { CANNOT_START, StartUpProblem, USAGE_ERROR } from './start-up-problem.ts';

/** The StartUpProblem for an error from listening on `host`:`port`, or undefined for an error it does not know. */
export function listenProblem(error: unknown, host: string, port: number): StartUpProblem | undefined {
  switch ((error as { code?: unknown } | undefined)?.code) {
    case 'EADDRINUSE': {
      const another = port > 0 && port < 65535 ? `--port ${port + 1}, or ` : '';
      return new StartUpProblem(
        `port ${port} on ${host} is in use (by another program, or a shapeshot started earlier): start with ${another}--port 0 for any free port`,
        CANNOT_START,
      );
    }
    case 'EACCES':
      return new StartUpProblem(`port ${port} is reserved for the system's administrator: start with --port 3000 (any port from 1024 up), or --port 0 for any free port`, CANNOT_START);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartUpProblem(`${host} is not an address of this machine: start with --host 127.0.0.1 (this machine only), or --host 0.0.0.0 (every network it is on)`, USAGE_ERROR);
    default:
      return undefined;
  }
}
