/**
 * The page a player sees when a launch URL cannot be played: unknown (or malformed) token, or a
 * session that has expired or ended. Plain HTML with the page's own stylesheet; texts in the
 * session's language when it is known (every language the catalog lists, as the game page), in the
 * four main languages at once when it is not.
 */
export type LaunchProblem = 'not_found' | 'expired';

const TEXTS: Readonly<Record<string, Readonly<Record<LaunchProblem | 'back', string>>>> = {
  en: {
    not_found: 'This game link is not valid. Please open the game again from the casino.',
    expired: 'This game session has expired. Please open the game again from the casino.',
    back: 'Back to the casino',
  },
  ko: {
    not_found: '유효하지 않은 게임 링크입니다. 카지노에서 게임을 다시 열어 주세요.',
    expired: '게임 세션이 만료되었습니다. 카지노에서 게임을 다시 열어 주세요.',
    back: '카지노로 돌아가기',
  },
  ja: {
    not_found: 'このゲームリンクは無効です。カジノからゲームをもう一度開いてください。',
    expired: 'ゲームセッションの有効期限が切れました。カジノからゲームをもう一度開いてください。',
    back: 'カジノに戻る',
  },
  zh: {
    not_found: '此游戏链接无效。请从娱乐场重新打开游戏。',
    expired: '游戏会话已过期。请从娱乐场重新打开游戏。',
    back: '返回娱乐场',
  },
  de: {
    not_found: 'Dieser Spiel-Link ist ungültig. Bitte öffnen Sie das Spiel erneut im Casino.',
    expired: 'Diese Spielsitzung ist abgelaufen. Bitte öffnen Sie das Spiel erneut im Casino.',
    back: 'Zurück zum Casino',
  },
  es: {
    not_found: 'Este enlace de juego no es válido. Vuelve a abrir el juego desde el casino.',
    expired: 'Esta sesión de juego ha caducado. Vuelve a abrir el juego desde el casino.',
    back: 'Volver al casino',
  },
  pt: {
    not_found: 'Este link de jogo não é válido. Abra o jogo novamente pelo cassino.',
    expired: 'Esta sessão de jogo expirou. Abra o jogo novamente pelo cassino.',
    back: 'Voltar ao cassino',
  },
  th: {
    not_found: 'ลิงก์เกมนี้ไม่ถูกต้อง กรุณาเปิดเกมอีกครั้งจากคาสิโน',
    expired: 'เซสชันเกมนี้หมดอายุแล้ว กรุณาเปิดเกมอีกครั้งจากคาสิโน',
    back: 'กลับไปที่คาสิโน',
  },
  vi: {
    not_found: 'Liên kết trò chơi này không hợp lệ. Vui lòng mở lại trò chơi từ sòng bạc.',
    expired: 'Phiên chơi này đã hết hạn. Vui lòng mở lại trò chơi từ sòng bạc.',
    back: 'Quay lại sòng bạc',
  },
};

/** Shown together when the session, and so its language, is unknown. */
const MAIN_LANGUAGES = ['en', 'ko', 'ja', 'zh'] as const;

const TITLES: Readonly<Record<LaunchProblem, string>> = {
  not_found: 'Game link not valid',
  expired: 'Game session expired',
};

export function launchErrorPage(problem: LaunchProblem, session?: { language: string; returnUrl: string }): string {
  const language = session ? (session.language.split('-')[0] ?? 'en') : undefined;
  const known = language === undefined ? undefined : TEXTS[language];
  const texts = known ? [known] : MAIN_LANGUAGES.flatMap((main) => TEXTS[main] ?? []);
  const lines = texts.map((text) => `<p>${escapeHtml(text[problem])}</p>`).join('\n      ');
  const back = session
    ? `<a class="button" href="${escapeHtml(session.returnUrl)}" rel="noreferrer">${escapeHtml((texts[0] ?? TEXTS['en'])?.back ?? 'Back')}</a>`
    : '';
  return `<!doctype html>
<html lang="${escapeHtml(session?.language ?? 'en')}">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <link rel="icon" href="data:,">
    <title>${TITLES[problem]}</title>
    <link rel="stylesheet" href="assets/game.css">
  </head>
  <body class="launch-error">
    <main class="notice" data-problem="${problem}">
      <div class="notice-mark" aria-hidden="true">!</div>
      ${lines}
      ${back}
    </main>
  </body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );
}
