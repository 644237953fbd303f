// The instant game: a wheel of the game's segments drawn in SVG, turned with a CSS transform
// until the drawn segment stops under the pointer. Slices are drawn equal; the odds are the
// game's, not the slices' widths.

const COLOURS = [
  '#7b1fa2',
  '#1565c0',
  '#c62828',
  '#00897b',
  '#ef6c00',
  '#283593',
  '#ad1457',
  '#2e7d32',
  '#4e342e',
  '#00838f',
];
const NS = 'http://www.w3.org/2000/svg';

function element(name, attributes) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

export class Wheel {
  constructor(root, segments) {
    this.segments = segments;
    this.rotation = 0;
    const slice = 360 / segments.length;
    const svg = element('svg', { viewBox: '-110 -110 220 220', class: 'wheel-disc', 'aria-hidden': 'true' });
    svg.append(element('circle', { r: 108, fill: 'url(#g-gold)' }), element('circle', { r: 100, fill: '#120b24' }));
    segments.forEach((multiplier, index) => {
      const from = ((index * slice - 90) * Math.PI) / 180;
      const to = (((index + 1) * slice - 90) * Math.PI) / 180;
      const path = `M0 0 L${(98 * Math.cos(from)).toFixed(2)} ${(98 * Math.sin(from)).toFixed(2)} A98 98 0 0 1 ${(98 * Math.cos(to)).toFixed(2)} ${(98 * Math.sin(to)).toFixed(2)} Z`;
      svg.append(
        element('path', {
          d: path,
          fill: multiplier === 0 ? '#2b2440' : COLOURS[index % COLOURS.length],
          stroke: '#f5c451',
          'stroke-width': 1.2,
        }),
      );
      const middle = index * slice + slice / 2;
      const label = element('text', {
        x: 0,
        y: -70,
        'text-anchor': 'middle',
        'font-size': multiplier >= 10 ? 15 : 17,
        transform: `rotate(${middle})`,
      });
      label.textContent = multiplier === 0 ? '0' : `×${multiplier}`;
      svg.append(label);
    });
    svg.append(element('circle', { r: 22, fill: 'url(#g-gold)', stroke: '#5d4300', 'stroke-width': 3 }));
    this.disc = svg;
    const pointer = document.createElement('div');
    pointer.className = 'wheel-pointer';
    root.replaceChildren(svg, pointer);
  }

  /** Turns until segment `index` is under the pointer; resolves when the wheel stands still. */
  spin(index) {
    const slice = 360 / this.segments.length;
    const target = -(index * slice + slice / 2);
    const current = ((this.rotation % 360) + 360) % 360;
    const forward = (((target - current) % 360) + 360) % 360;
    this.rotation += 5 * 360 + forward;
    this.disc.style.transform = `rotate(${this.rotation}deg)`;
    return new Promise((resolve) => setTimeout(resolve, 3_300));
  }
}
