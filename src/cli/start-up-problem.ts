/**
 * Why shapeshot cannot start, for a mistake a newcomer makes (a folder that is not there, a
 * port in use): the entry point prints the message alone, no stack, and exits with the status.
 */

/** The exit status of a usage error: what was asked for cannot be served (as for a bad option). */
export const USAGE_ERROR = 2;
/** The exit status when the machine refuses what was asked for (a port in use): the same request may work later. */
export const CANNOT_START = 1;

export class StartUpProblem extends Error {
  /** `message`: one sentence that names what is wrong and says what to do instead. */
  constructor(
    message: string,
    readonly exitStatus: number,
  ) {
    super(message);
    this.name = 'StartUpProblem';
  }
}
