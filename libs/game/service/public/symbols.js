// Symbol art: inline SVG drawn from shapes and the gradients defined once in index.html, so the
// page needs no image files. Royals are letters, fruits and a few named symbols have their own
// drawing, every other symbol is a cut gem whose shape and colour come from its place in the
// game's symbol list; the wild and the scatter are labelled.

const SVG_OPEN = '<svg viewBox="0 0 100 100" aria-hidden="true" focusable="false">';
const GEM_COLOURS = ['red', 'blue', 'green', 'purple', 'orange', 'teal'];
const ROYAL = { Ace: ['A', 'red'], King: ['K', 'blue'], Queen: ['Q', 'purple'], Jack: ['J', 'green'] };

const GEMS = [
  // diamond
  (c) =>
    `<polygon points="50,6 90,40 50,94 10,40" fill="url(#g-${c})" stroke="#0b0714" stroke-width="3"/><polygon points="50,6 66,40 50,94 34,40" fill="#ffffff" opacity="0.18"/><polygon points="10,40 90,40 72,22 28,22" fill="#ffffff" opacity="0.22"/>`,
  // round brilliant
  (c) =>
    `<circle cx="50" cy="52" r="38" fill="url(#g-${c})" stroke="#0b0714" stroke-width="3"/><polygon points="50,22 76,38 70,68 30,68 24,38" fill="#ffffff" opacity="0.2"/><circle cx="38" cy="36" r="8" fill="#ffffff" opacity="0.55"/>`,
  // hexagon
  (c) =>
    `<polygon points="50,8 88,30 88,72 50,94 12,72 12,30" fill="url(#g-${c})" stroke="#0b0714" stroke-width="3"/><polygon points="50,24 72,37 72,63 50,76 28,63 28,37" fill="#ffffff" opacity="0.2"/>`,
  // heart
  (c) =>
    `<path d="M50 90 C10 62 8 34 28 22 C40 15 48 22 50 30 C52 22 60 15 72 22 C92 34 90 62 50 90 Z" fill="url(#g-${c})" stroke="#0b0714" stroke-width="3"/><ellipse cx="34" cy="34" rx="8" ry="5" fill="#ffffff" opacity="0.5"/>`,
  // emerald cut
  (c) =>
    `<polygon points="30,10 70,10 88,30 88,70 70,90 30,90 12,70 12,30" fill="url(#g-${c})" stroke="#0b0714" stroke-width="3"/><rect x="30" y="28" width="40" height="44" fill="#ffffff" opacity="0.18"/>`,
  // shield
  (c) =>
    `<path d="M50 6 L86 20 L80 62 Q72 82 50 94 Q28 82 20 62 L14 20 Z" fill="url(#g-${c})" stroke="#0b0714" stroke-width="3"/><path d="M50 18 L74 27 L70 58 Q64 72 50 80 Z" fill="#ffffff" opacity="0.2"/>`,
];

const NAMED = {
  Cherry: () =>
    '<path d="M50 14 Q40 40 30 58 M50 14 Q62 40 70 56" stroke="#2e7d32" stroke-width="5" fill="none"/><path d="M50 14 Q66 8 78 18 Q64 24 50 14Z" fill="#43a047"/><circle cx="30" cy="68" r="20" fill="url(#g-red)" stroke="#3b0000" stroke-width="3"/><circle cx="70" cy="66" r="20" fill="url(#g-red)" stroke="#3b0000" stroke-width="3"/><circle cx="24" cy="61" r="5" fill="#fff" opacity="0.6"/><circle cx="64" cy="59" r="5" fill="#fff" opacity="0.6"/>',
  Lemon: () =>
    '<ellipse cx="50" cy="54" rx="40" ry="30" fill="url(#g-yellow)" stroke="#5d4300" stroke-width="3"/><ellipse cx="38" cy="44" rx="10" ry="5" fill="#fff" opacity="0.55"/>',
  Orange: () =>
    '<circle cx="50" cy="56" r="36" fill="url(#g-orange)" stroke="#4e2300" stroke-width="3"/><path d="M50 20 Q62 8 74 14 Q64 26 50 20Z" fill="#43a047"/><circle cx="38" cy="44" r="7" fill="#fff" opacity="0.5"/>',
  Plum: () =>
    '<ellipse cx="50" cy="56" rx="32" ry="36" fill="url(#g-purple)" stroke="#2a0a3a" stroke-width="3"/><path d="M50 22 Q50 38 48 56" stroke="#2a0a3a" stroke-width="2" fill="none" opacity="0.5"/><ellipse cx="38" cy="42" rx="6" ry="9" fill="#fff" opacity="0.45"/>',
  Grapes: () =>
    [
      [50, 30],
      [36, 44],
      [64, 44],
      [50, 52],
      [30, 60],
      [70, 60],
      [42, 70],
      [58, 70],
      [50, 86],
    ]
      .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="12" fill="url(#g-purple)" stroke="#2a0a3a" stroke-width="2.5"/>`)
      .join('') + '<path d="M50 18 Q56 6 68 8" stroke="#2e7d32" stroke-width="5" fill="none"/>',
  Melon: () =>
    '<path d="M8 40 A42 42 0 0 0 92 40 Z" fill="url(#g-green)" stroke="#0d3b12" stroke-width="3"/><path d="M16 42 A34 34 0 0 0 84 42 Z" fill="url(#g-red)"/><g fill="#1a0a0a">' +
    [
      [34, 54],
      [50, 60],
      [66, 54],
      [42, 66],
      [58, 66],
    ]
      .map(([x, y]) => `<ellipse cx="${x}" cy="${y}" rx="2.5" ry="4"/>`)
      .join('') +
    '</g>',
  Seven: () =>
    '<text x="50" y="80" text-anchor="middle" font-size="86" font-weight="900" font-style="italic" fill="url(#g-red)" stroke="#fff3b0" stroke-width="4" paint-order="stroke">7</text>',
  Bar: () =>
    '<rect x="8" y="30" width="84" height="40" rx="8" fill="#111" stroke="url(#g-gold)" stroke-width="5"/><text x="50" y="61" text-anchor="middle" font-size="28" font-weight="900" fill="url(#g-gold)">BAR</text>',
  'Gold Coin': () =>
    '<circle cx="50" cy="50" r="40" fill="url(#g-gold)" stroke="#5d4300" stroke-width="3"/><circle cx="50" cy="50" r="29" fill="none" stroke="#8a6500" stroke-width="3"/><rect x="42" y="42" width="16" height="16" fill="#5d4300"/>',
  Lantern: () =>
    '<rect x="44" y="6" width="12" height="10" fill="url(#g-gold)"/><ellipse cx="50" cy="52" rx="32" ry="36" fill="url(#g-red)" stroke="#3b0000" stroke-width="3"/><path d="M30 24 Q50 52 30 80 M70 24 Q50 52 70 80 M50 16 V88" stroke="#f5c451" stroke-width="3" fill="none" opacity="0.8"/><rect x="42" y="86" width="16" height="8" fill="url(#g-gold)"/>',
};

function escapeText(text) {
  return String(text).replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char],
  );
}

function wildArt() {
  return '<rect x="6" y="18" width="88" height="64" rx="14" fill="url(#g-gold)" stroke="#5d4300" stroke-width="3"/><polygon points="50,4 55,14 66,14 57,20 60,30 50,24 40,30 43,20 34,14 45,14" fill="#fff8dc"/><text x="50" y="64" text-anchor="middle" font-size="28" font-weight="900" fill="#3a1d00" letter-spacing="1">WILD</text>';
}

function scatterArt(name) {
  const points = [];
  for (let i = 0; i < 16; i++) {
    const radius = i % 2 === 0 ? 46 : 30;
    const angle = (Math.PI * i) / 8 - Math.PI / 2;
    points.push(`${(50 + radius * Math.cos(angle)).toFixed(1)},${(50 + radius * Math.sin(angle)).toFixed(1)}`);
  }
  const label = escapeText(name.toUpperCase().slice(0, 7));
  return `<polygon points="${points.join(' ')}" fill="url(#g-pink)" stroke="#3d0020" stroke-width="3"/><circle cx="50" cy="50" r="22" fill="#2a0a3a" opacity="0.55"/><text x="50" y="56" text-anchor="middle" font-size="${label.length > 5 ? 13 : 16}" font-weight="900" fill="#fff">${label}</text>`;
}

function royalArt(letter, colour) {
  return `<text x="50" y="76" text-anchor="middle" font-size="72" font-weight="900" fill="url(#g-${colour})" stroke="#0b0714" stroke-width="5" paint-order="stroke">${letter}</text>`;
}

/** code → SVG markup, for the symbols of one game. */
export function symbolArt(symbols) {
  const art = new Map();
  let gemIndex = 0;
  for (const symbol of symbols) {
    let body;
    if (symbol.role === 'wild') body = wildArt();
    else if (symbol.role === 'scatter') body = scatterArt(symbol.name);
    else if (ROYAL[symbol.name]) body = royalArt(...ROYAL[symbol.name]);
    else if (NAMED[symbol.name]) body = NAMED[symbol.name]();
    else {
      body = GEMS[gemIndex % GEMS.length](GEM_COLOURS[gemIndex % GEM_COLOURS.length]);
      gemIndex += 1;
    }
    art.set(symbol.code, `${SVG_OPEN}${body}</svg>`);
  }
  return art;
}
