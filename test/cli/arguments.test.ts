/**
 * A mistyped option gets one sentence that names it and, when one of ours is a slip away
 * from it, the option meant (docs/configuration.md, "Where settings come from"), never
 * parseArgs's own text with its unbalanced quote.
 */
import { describe, expect, it } from 'vitest';
import { parseArguments } from '../../src/cli/arguments.ts';

describe('an unknown option', () => {
  it.each([
    [['--prot', '8080'], "Unknown option '--prot': did you mean --port?"],
    [['--Port=8080'], "Unknown option '--Port': did you mean --port?"],
    [['./data', '--hots', '0.0.0.0'], "Unknown option '--hots': did you mean --host?"],
    [['--cofnig', 'shapeshot.json'], "Unknown option '--cofnig': did you mean --config?"],
    [['--verison'], "Unknown option '--verison': did you mean --version?"],
  ])('%j: %s', (args, message) => {
    expect(parseArguments(args)).toEqual({ kind: 'invalid', message });
  });

  it('far from every option says where a folder named like an option goes', () => {
    expect(parseArguments(['--verbose'])).toEqual({
      kind: 'invalid',
      message: "Unknown option '--verbose' (a data folder whose name starts with '-' goes after '--': shapeshot -- --verbose).",
    });
    expect(parseArguments(['--', '--prot'])).toEqual({ kind: 'serve', settings: { dataDir: '--prot' } });
  });

  it('is named before a value that is missing elsewhere on the line', () => {
    expect(parseArguments(['--prot', '--port'])).toEqual({ kind: 'invalid', message: "Unknown option '--prot': did you mean --port?" });
  });

  it('leaves the known options as they were', () => {
    expect(parseArguments(['./data', '--port', '8080', '--host', '0.0.0.0'])).toEqual({
      kind: 'serve',
      settings: { dataDir: './data', port: 8080, host: '0.0.0.0' },
    });
    expect(parseArguments(['-p', '70000'])).toEqual({ kind: 'invalid', message: "Option '--port' takes a port number from 0 to 65535; got '70000'." });
  });
});
