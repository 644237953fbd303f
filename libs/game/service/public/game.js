// The game page: loads the session, draws the game, and plays one spin per click: paid spins at
// the chosen bet, free spins while the player has a free-spin bonus for this game. A Regular Bonus
// Call (bonusType 2) is played through paid spins: its badge shows what they delivered of its target.
import { loadSession, spin } from './api.js';
import { errorKey, translator } from './i18n.js';
import { Reels } from './reels.js';
import { symbolArt } from './symbols.js';
import { Wheel } from './wheel.js';

const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.search).get('token') ?? '';
const ENDING_CODES = new Set(['SESSION_EXPIRED', 'SESSION_NOT_FOUND']);
const BONUS_CODES = new Set([
  'BONUS_EXPIRED',
  'BONUS_NOT_FOUND',
  'BONUS_NOT_ACTIVE',
  'FREE_SPIN_IN_PROGRESS',
  'GAME_NOT_IN_BONUS',
  'BONUS_CURRENCY_MISMATCH',
]);

const state = {
  session: null,
  betIndex: 0,
  bonus: null,
  regular: null,
  busy: false,
  machine: null,
  t: translator(navigator.language),
  money: null,
  balancePoll: undefined,
  balanceEpoch: 0,
};

function setState(name) {
  $('app').dataset.state = name;
}

function applyTexts() {
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = state.t(node.dataset.i18n);
  for (const node of document.querySelectorAll('[data-i18n-label]'))
    node.setAttribute('aria-label', state.t(node.dataset.i18nLabel));
}

function say(kind, text) {
  const message = $('message');
  message.className = `message ${kind}`;
  message.textContent = text;
}

function fatal(code) {
  setState('ended');
  $('fatal-text').textContent = state.t(errorKey(code));
  const back = $('fatal-back');
  if (state.session) {
    back.href = state.session.returnUrl;
    back.textContent = state.t('back');
    back.hidden = false;
  }
  $('fatal').hidden = false;
}

/**
 * The balance is only ever one the operator's wallet confirmed; a win it has not answered yet is
 * shown beside it as pending, and the session is read again (after 0.5 s, then less and less often,
 * for about two minutes) until the wallet's answer is there. A spin meanwhile takes over.
 */
function showBalance(balance, pendingWin = 0, poll = 0) {
  if (balance !== null && balance !== undefined) $('balance').textContent = state.money(balance);
  const pending = $('pending-win');
  pending.hidden = !(pendingWin > 0);
  pending.textContent = pendingWin > 0 ? state.t('pendingWin', { amount: state.money(pendingWin) }) : '';
  clearTimeout(state.balancePoll);
  const epoch = ++state.balanceEpoch;
  if (pendingWin > 0 && poll < 30)
    state.balancePoll = setTimeout(() => void pollBalance(epoch, poll), Math.min(500 * 1.25 ** poll, 5_000));
}

async function pollBalance(epoch, poll) {
  if (state.busy) return;
  const answer = await loadSession(token);
  // A balance shown since (a spin's) is newer than this read.
  if (!answer.ok || state.busy || epoch !== state.balanceEpoch) return;
  showBalance(answer.data.balance, answer.data.pendingWin, poll + 1);
}

function showBet() {
  const levels = state.session.betLevels;
  const free = state.bonus !== null;
  $('bet').textContent = state.money(free ? state.bonus.baseBet : levels[state.betIndex]);
  $('bet-down').disabled = free || state.busy || state.betIndex === 0;
  $('bet-up').disabled = free || state.busy || state.betIndex === levels.length - 1;
  $('spin-label').textContent = state.t(free ? 'freeSpin' : 'spin');
  $('spin').classList.toggle('free', free);
}

function showBonus(bonus, { complete = false } = {}) {
  if (!bonus) {
    $('bonus').hidden = true;
    return;
  }
  showBadge({
    done: String(bonus.spinsLeft),
    of: String(bonus.spinAmount),
    figure: state.money(bonus.winSoFar),
    label: complete ? 'bonusDone' : 'freeSpins',
    figureLabel: 'winSoFar',
    complete,
    issueId: bonus.issueId,
    bonusType: '1',
  });
}

/** A Regular Bonus Call's progress in the same badge: delivered of its target, and what is still to win. */
function showRegularBonus(regular, { complete = false } = {}) {
  showBadge({
    done: state.money(regular.delivered),
    of: state.money(regular.callAmount),
    figure: state.money(regular.left),
    label: complete ? 'bonusCallDone' : 'bonusCall',
    figureLabel: 'bonusCallLeft',
    complete,
    issueId: regular.issueId,
    bonusType: '2',
  });
}

/** The bonus badge, shown: its progress (`done` of `of`), a figure under its own label, and the bonus it is of. */
function showBadge({ done, of, figure, label, figureLabel, complete, issueId, bonusType }) {
  const badge = $('bonus');
  $('spins-left').textContent = done;
  $('spins-total').textContent = of;
  $('win-so-far').textContent = figure;
  badge.querySelector('.bonus-label').textContent = state.t(label);
  badge.querySelector('.bonus-sub-label').textContent = state.t(figureLabel);
  badge.classList.toggle('complete', complete);
  badge.dataset.issueId = String(issueId);
  badge.dataset.bonusType = bonusType;
  badge.hidden = false;
}

/** The outcome in words, or that nothing was won. */
function sayOutcome(result) {
  say(result.win > 0 ? 'success' : '', result.win > 0 ? describeWin(result) : state.t('noWin'));
}

function setBusy(busy) {
  state.busy = busy;
  $('spin').disabled = busy;
  setState(busy ? 'spinning' : 'idle');
  showBet();
}

function showWinBanner(result) {
  const banner = $('win-banner');
  if (result.win <= 0) {
    banner.hidden = true;
    return;
  }
  const amount = document.createElement('div');
  amount.className = 'amount';
  amount.textContent = state.money(result.win);
  banner.replaceChildren(amount);
  const feature = result.outcome.kind === 'slot' ? result.outcome.feature : null;
  if (feature) {
    const detail = document.createElement('div');
    detail.className = 'detail';
    detail.textContent = state.t('feature', {
      games: feature.awardedGames,
      multiplier: feature.multiplier,
      amount: state.money(feature.win),
    });
    banner.append(detail);
  }
  banner.hidden = false;
}

/** What paid, in words: the paying lines (at most three), the scatters, the feature. */
function describeWin(result) {
  const { outcome } = result;
  if (outcome.kind !== 'slot') return state.t('bigWin', { amount: state.money(result.win) });
  const names = new Map(state.session.layout.symbols.map((symbol) => [symbol.code, symbol.name]));
  const parts = outcome.lineWins.slice(0, 3).map((line) =>
    state.t('lineWin', {
      line: line.line + 1,
      count: line.count,
      symbol: names.get(line.symbol) ?? line.symbol,
      amount: state.money(line.win),
    }),
  );
  if (outcome.lineWins.length > 3) parts.push('…');
  if (outcome.scatterWin > 0)
    parts.push(state.t('scatterWin', { count: outcome.scatterCount, amount: state.money(outcome.scatterWin) }));
  if (outcome.feature)
    parts.push(
      state.t('feature', {
        games: outcome.feature.awardedGames,
        multiplier: outcome.feature.multiplier,
        amount: state.money(outcome.feature.win),
      }),
    );
  return parts.length > 0 ? parts.join(' · ') : state.t('bigWin', { amount: state.money(result.win) });
}

async function play(outcome) {
  const { layout } = state.session;
  if (outcome.kind === 'instant') return state.machine.spin(outcome.segment);
  await state.machine.spin(outcome.window);
  const scatter = layout.symbols.find((symbol) => symbol.role === 'scatter')?.code;
  state.machine.highlight(outcome.lineWins, layout.paylines, scatter, outcome.scatterCount);
}

/**
 * The session's bonus as the page plays it (D6 amended): one in another currency is not played
 * here. It is named in a note, in its own currency, and the button plays paid spins.
 */
function takeBonus(bonus) {
  if (bonus !== null && bonus.bonusType === 2) {
    // Steers this session's paid spins only when playable; the bet stays the player's choice.
    $('bonus-elsewhere').hidden = true;
    state.bonus = null;
    state.regular = bonus.playable ? bonus : null;
    if (state.regular) showRegularBonus(state.regular);
    else showBonus(null);
    return;
  }
  state.regular = null;
  const elsewhere = bonus !== null && bonus.playable === false;
  const note = $('bonus-elsewhere');
  note.hidden = !elsewhere;
  note.textContent = elsewhere
    ? state.t('bonusOtherCurrency', { total: bonus.spinsLeft, currency: bonus.currency })
    : '';
  state.bonus = elsewhere ? null : bonus;
  showBonus(state.bonus);
}

async function onSpin() {
  if (state.busy || $('app').dataset.state === 'ended') return;
  setBusy(true);
  $('win-banner').hidden = true;
  say('', '');
  const free = state.bonus;
  const answer = await spin(token, free ? { issueId: free.issueId } : { bet: state.session.betLevels[state.betIndex] });
  if (!answer.ok) {
    setBusy(false);
    if (ENDING_CODES.has(answer.code)) return fatal(answer.code);
    say('error', state.t(errorKey(answer.code)));
    if (BONUS_CODES.has(answer.code)) await refresh();
    return;
  }
  const result = answer.data;
  await play(result.outcome);
  $('win').textContent = state.money(result.win);
  showBalance(result.balance, result.pendingWin);
  showWinBanner(result);
  $('round-id').textContent = state.t('round', { id: result.roundId });
  if (result.bonus && result.bonus.bonusType === 2) {
    // A paid spin steered by the player's Regular Bonus Call: its progress after this spin.
    const progress = result.bonus;
    state.regular = progress.status === 'active' ? progress : null;
    if (progress.completed) {
      showRegularBonus(progress, { complete: true });
      say('success', state.t('bonusCallComplete', { total: state.money(progress.delivered) }));
    } else {
      if (state.regular) showRegularBonus(progress);
      else showBonus(null);
      sayOutcome(result);
    }
  } else if (result.bonus) {
    // Everything the badge needs is in the spin's answer, even for a bonus registered after the page loaded.
    const { issueId, spinNumber, spinsLeft, winSoFar, winCapLeft } = result.bonus;
    const bonus = { issueId, spinAmount: spinNumber + spinsLeft, spinsLeft, winSoFar, winCapLeft, baseBet: result.bet };
    if (result.bonus.completed) {
      state.bonus = null;
      showBonus(bonus, { complete: true });
      say(
        'success',
        `${state.t('bonusComplete', { total: state.money(result.bonus.winSoFar) })}${result.bonus.capped || result.bonus.winCapLeft === 0 ? ` ${state.t('capReached')}` : ''}`,
      );
    } else {
      state.bonus = bonus;
      showBonus(bonus);
      sayOutcome(result);
    }
  } else {
    state.regular = null;
    if (!$('bonus').classList.contains('complete')) showBonus(null);
    sayOutcome(result);
  }
  setBusy(false);
}

async function refresh() {
  const answer = await loadSession(token);
  if (!answer.ok)
    return ENDING_CODES.has(answer.code) ? fatal(answer.code) : say('error', state.t(errorKey(answer.code)));
  state.session = answer.data;
  takeBonus(answer.data.activeBonus);
  showBalance(answer.data.balance, answer.data.pendingWin);
  showBet();
}

function changeBet(step) {
  const levels = state.session.betLevels;
  state.betIndex = Math.min(levels.length - 1, Math.max(0, state.betIndex + step));
  showBet();
}

async function start() {
  applyTexts();
  const answer = await loadSession(token);
  if (!answer.ok) return fatal(answer.code);
  const session = answer.data;
  state.session = session;
  state.t = translator(session.language);
  document.documentElement.lang = session.language;
  const format = new Intl.NumberFormat(session.language, { style: 'currency', currency: session.currency });
  state.money = (amount) => format.format(amount);
  applyTexts();
  document.title = session.game.name;
  $('title').textContent = session.game.name;
  $('back').href = session.returnUrl;
  $('demo').hidden = !session.demo;
  if (session.layout.kind === 'slot') {
    state.machine = new Reels($('reels'), session.layout, symbolArt(session.layout.symbols));
  } else {
    $('reels').hidden = true;
    $('wheel').hidden = false;
    $('machine').classList.add('instant');
    state.machine = new Wheel($('wheel'), session.layout.segments);
  }
  takeBonus(session.activeBonus);
  showBalance(session.balance, session.pendingWin);
  if (state.bonus)
    say('info', state.t('bonusStarts', { total: state.bonus.spinsLeft, bet: state.money(state.bonus.baseBet) }));
  else if (state.regular) say('info', state.t('bonusCallStarts', { total: state.money(state.regular.callAmount) }));
  setBusy(false);

  $('spin').addEventListener('click', () => void onSpin());
  $('bet-down').addEventListener('click', () => changeBet(-1));
  $('bet-up').addEventListener('click', () => changeBet(1));
  document.addEventListener('keydown', (event) => {
    if (
      event.code === 'Space' &&
      !(event.target instanceof HTMLButtonElement || event.target instanceof HTMLAnchorElement)
    ) {
      event.preventDefault();
      void onSpin();
    }
  });
}

void start();
