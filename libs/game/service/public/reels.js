// The slot's reels: one column per reel, each a strip of symbol cells moved with CSS transforms.
// A spin lays out [spare][result][filler…][current] and slides the strip down until the result
// shows, reel by reel, with a small overshoot; then the strip is rebuilt with the result alone.

const STOP_BASE_MS = 650;
const STOP_STEP_MS = 230;

export class Reels {
  constructor(root, layout, art) {
    this.root = root;
    this.rows = layout.rows;
    this.art = art;
    this.fillers = layout.symbols.map((symbol) => symbol.code);
    this.columns = [];
    root.replaceChildren();
    root.style.setProperty('--rows', String(this.rows));
    for (let reel = 0; reel < layout.reels; reel++) {
      const column = document.createElement('div');
      column.className = 'reel';
      const strip = document.createElement('div');
      strip.className = 'strip';
      column.append(strip);
      root.append(column);
      this.columns.push({ column, strip, symbols: this.randomSymbols(this.rows) });
      this.render(this.columns[reel], this.columns[reel].symbols);
    }
  }

  randomSymbols(count) {
    const symbols = [];
    for (let i = 0; i < count; i++) symbols.push(this.fillers[Math.floor(Math.random() * this.fillers.length)]);
    return symbols;
  }

  cell(code) {
    const cell = document.createElement('div');
    cell.className = 'cell';
    cell.dataset.symbol = code;
    cell.innerHTML = this.art.get(code) ?? '';
    return cell;
  }

  render(column, symbols) {
    column.strip.style.transition = 'none';
    column.strip.style.transform = 'translateY(0)';
    column.strip.replaceChildren(...symbols.map((code) => this.cell(code)));
  }

  /** Spins to `window` (one string per reel, top row first); resolves when the last reel stops. */
  spin(window) {
    this.clearHighlight();
    const stops = this.columns.map((column, index) => {
      const result = [...(window[index] ?? '')];
      const filler = this.randomSymbols(10 + index * 4);
      const sequence = [...this.randomSymbols(1), ...result, ...filler, ...column.symbols];
      const total = sequence.length;
      column.strip.style.transition = 'none';
      column.strip.replaceChildren(...sequence.map((code) => this.cell(code)));
      column.strip.style.transform = `translateY(${(-100 * (total - this.rows)) / total}%)`;
      // Reading the layout commits the start position before the transition starts.
      void column.strip.offsetHeight;
      const duration = STOP_BASE_MS + index * STOP_STEP_MS;
      column.column.classList.add('spinning');
      column.strip.style.transition = `transform ${duration}ms cubic-bezier(0.3, 0.1, 0.35, 1.12)`;
      column.strip.style.transform = `translateY(${-100 / total}%)`;
      return new Promise((resolve) => {
        setTimeout(() => column.column.classList.remove('spinning'), Math.max(0, duration - 260));
        setTimeout(() => {
          column.symbols = result;
          this.render(column, result);
          resolve();
        }, duration + 40);
      });
    });
    return Promise.all(stops);
  }

  /** Shows `window` at once (no animation): the feature's last game, a reload. */
  show(window) {
    this.columns.forEach((column, index) => {
      column.symbols = [...(window[index] ?? '')];
      this.render(column, column.symbols);
    });
  }

  /** Lights the cells of the paying lines and scatters; the rest dims. */
  highlight(lineWins, paylines, scatterCode, scatterCount) {
    const lit = new Set();
    for (const win of lineWins) {
      const rows = paylines[win.line] ?? [];
      for (let reel = 0; reel < win.count; reel++) lit.add(`${reel}:${rows[reel]}`);
    }
    this.columns.forEach((column, reel) => {
      [...column.strip.children].forEach((cell, row) => {
        const scatter = scatterCount >= 3 && cell.dataset.symbol === scatterCode;
        if (lit.has(`${reel}:${row}`) || scatter) cell.classList.add('win');
      });
    });
    if (lit.size > 0 || scatterCount >= 3) this.root.classList.add('has-win');
  }

  clearHighlight() {
    this.root.classList.remove('has-win');
    for (const cell of this.root.querySelectorAll('.cell.win')) cell.classList.remove('win');
  }
}
