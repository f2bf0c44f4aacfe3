/** A one-line progress bar on a terminal: the model being imported, its rows, the rate and the time left. */
export interface Progress {
  update: (model: string, done: number, total: number) => void;
  done: () => void;
}

/** Draws on `stream` (a TTY), at most ten times a second. */
export function progressBar(stream: NodeJS.WriteStream): Progress {
  const started = Date.now();
  let rows = 0;
  let lastDraw = 0;
  const seen = new Map<string, number>();
  return {
    update(model, done, total) {
      rows += done - (seen.get(model) ?? 0);
      seen.set(model, done);
      const now = Date.now();
      if (now - lastDraw < 100 && done < total) return;
      lastDraw = now;
      const seconds = Math.max(0.001, (now - started) / 1000);
      const rate = rows / seconds;
      const width = 24;
      const filled = total > 0 ? Math.round((width * done) / total) : width;
      const left = rate > 0 ? Math.max(0, (total - done) / rate) : 0;
      const line = `${model.padEnd(32)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}  ${Math.round(rate)} rows/s  ${left.toFixed(0)} s left`;
      stream.write(`\r${line.slice(0, (stream.columns || 120) - 1)}\x1b[K`);
    },
    done() {
      stream.write('\r\x1b[K');
    },
  };
}
