import type { ReadStream } from 'node:tty';

/** The person at the terminal gave up (Ctrl-C, or Ctrl-D on an empty line). */
export class PromptCancelled extends Error {}

/**
 * Asks each question on stderr and reads one answer per line from the terminal on stdin, with
 * echo off (raw mode): nothing typed is shown. Backspace deletes; Ctrl-C or Ctrl-D cancels.
 */
export function askHidden(questions: readonly string[], input: ReadStream = process.stdin as ReadStream, output: NodeJS.WritableStream = process.stderr): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const answers: string[] = [];
    let current = '';
    let afterCr = false;
    const finish = (err?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      if (err) reject(err);
      else resolve(answers);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        const skip = afterCr && ch === '\n';
        afterCr = false;
        if (skip) continue;
        if (ch === '\r' || ch === '\n') {
          afterCr = ch === '\r';
          output.write('\n');
          answers.push(current);
          current = '';
          if (answers.length === questions.length) return finish();
          output.write(questions[answers.length]);
        } else if (ch === '\u0003' || (ch === '\u0004' && current === '')) {
          output.write('\n');
          return finish(new PromptCancelled('cancelled'));
        } else if (ch === '\u007f' || ch === '\b') {
          current = Array.from(current).slice(0, -1).join('');
        } else if (ch >= ' ') {
          current += ch;
        }
      }
    };
    input.setRawMode(true);
    input.setEncoding('utf8');
    output.write(questions[0]);
    input.on('data', onData);
    input.resume();
  });
}
