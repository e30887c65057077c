import { boundText } from './inputLimits';
import { neutralizeScreenText } from './screenText';

// Instruction-like text on the screen (prompt injection): a web page, a document or a dialog
// that addresses the agent ("ignore previous instructions", "type your password", "run this
// command"). Flagging it does not block anything; the result says so, and the model is told to
// report it rather than obey it.
//
// What is flagged, and what is not (false positives cost attention, so labels stay quiet):
// - requests to TYPE, SEND or REVEAL a credential ("Enter your password", "send me your API
//   key", "type the verification code"). This includes a real login page's "Enter your
//   password": the flag only says the text is data, so the agent goes on when the person asked
//   it to sign in. Labels and links are not flagged: "Password", "Enter password", "Forgot
//   your password?", "Change password", "Confirm password".
// - attempts to override or replace the agent's instructions, to give it a role, to read or
//   change its system prompt, text addressed to an AI, fake chat-template markers;
// - "copy … and paste", "run this command", Win+R, `curl … | sh`, encoded PowerShell;
// - sending something to an address, URL or "me"; asking to visit a URL. "Send to back",
//   "Send to printer", a bare URL in an address bar are not flagged.
// "You are now connected/signed in" and "System prompt" as a settings label are not flagged.
//
// Matching is English, case-insensitive, over a folded copy of the text: runs of white space
// become one space, invisible characters are dropped, and cheap OCR and Unicode look-alikes
// are mapped (0→o, 1/l→i, full-width letters, Cyrillic а е о р с х у і, Greek ι ο α ε).

export interface InstructionFlag {
  /** The text around the match, as on the screen (bounded, markers made inert). */
  text: string;
  /** Where it was read, e.g. `ocr line at (120, 40)` or `window title`. */
  source: string;
  /** Which rule matched: override, role, system_prompt, addressed_to_ai, credentials, command, copy_paste, send_to, visit_url. */
  rule: string;
}

export interface ScreenTextItem {
  text: string;
  source: string;
}

/** At most this many flags per result: enough to warn, bounded in size. */
export const MAX_FLAGS = 5;
const MAX_SNIPPET_CHARS = 160;
const CONTEXT_CHARS = 30;
/** Very long texts are scanned in their first part only: the scan must stay cheap. */
const MAX_SCANNED_CHARS = 50_000;

const DET = '(?:(?:all|any|the|your|my|our|these|those|every|of) )*';
const PRIOR = '(?:previous|prior|above|earlier|preceding|former|original|old|existing|initial)';
const AI = '(?:ai|llm|gpt|chatgpt|claude|gemini|copilot|language model|ai assistant|ai agent|assistant|agent|bot|robot)';
const TLD = '(?:com|net|org|io|ru|cn|xyz|top|info|biz|co|app|dev|link|click|site|online|me|ly|gg|tk|zip)';
const URL = `(?:https?://\\S+|www\\.\\S+|[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.${TLD}\\b\\S*)`;
const SECRET_KIND =
  '(?:(?:stored|saved|current|admin|administrator|root|account|login|master|wallet|bank|banking|email|windows|google|microsoft|apple id|sudo|user|card) )*' +
  '(?:password|passcode|passphrase|pass phrase|pin(?: code| number)?|api ?keys?|secret ?keys?|private ?keys?|ssh keys?|access ?tokens?|' +
  'auth(?:entication)? tokens?|session (?:tokens?|cookies?)|cookies|tokens?|credentials|login details|(?:2fa|mfa) codes?|' +
  'two[- ]?factor (?:authentication )?codes?|verification codes?|one[- ]?time (?:codes?|passwords?|passcodes?)|otp|security codes?|' +
  'recovery (?:phrase|codes?|keys?)|seed phrase|secret phrase|mnemonic|credit card(?: number| details)?|card number|cvv|social security number|ssn)';
const GIVE =
  '(?:type|enter|input|paste|send|give|provide|share|tell|submit|reveal|disclose|email|post|upload|write|read out|fill in|put|forward|reply with|respond with|dm)';

const RULES: ReadonlyArray<{ rule: string; source: string }> = [
  { rule: 'override', source: `\\b(?:ignore|disregard|forget|override|bypass) ${DET}(?:${PRIOR} )?(?:(?:system|safety|developer) )?(?:instructions?|prompts?|guardrails|programming|directives?|guidelines)\\b` },
  { rule: 'override', source: `\\b(?:ignore|disregard|forget|override) ${DET}${PRIOR} (?:rules|commands|messages|context|directions|orders|conversation|tasks?)\\b` },
  { rule: 'override', source: `\\b(?:ignore|disregard|forget) (?:everything|all|anything) (?:above|before|so far|you (?:were|have been|'ve been) told)\\b` },
  { rule: 'override', source: `\\bdisregard (?:the|all|everything|any) (?:above|previous|prior|earlier)\\b` },
  { rule: 'role', source: `\\byou are now (?:a |an |the )?(?:dan|jailbroken|unrestricted|unfiltered|in developer mode|in god mode|free (?:from|of)|no longer (?:bound|restricted|an? ai)|(?:different|new|evil|rogue) ${AI})\\b` },
  { rule: 'role', source: `\\byou are now (?:a|an) (?:[a-z-]+ ){0,3}?${AI}\\b` },
  { rule: 'role', source: `\\bfrom now on,? you (?:are|will|must|shall|should)\\b` },
  { rule: 'role', source: `\\b(?:pretend (?:to be|you are|that you are)|new (?:role|persona|identity) ?:)` },
  { rule: 'system_prompt', source: `\\b(?:reveal|show|print|repeat|output|leak|ignore|override|disregard|forget|change|update|new|your) (?:(?:your|the|me|us) )*system prompt\\b` },
  { rule: 'system_prompt', source: `\\bsystem prompt ?:|\\b(?:system|developer|admin(?:istrator)?) (?:override|directive)\\b|\\bsystem (?:message|instructions?) ?:` },
  { rule: 'system_prompt', source: `<\\|im_start\\|>|\\[/?inst\\]|<<sys>>|### ?(?:instruction|system)\\b` },
  { rule: 'new_instructions', source: `\\b(?:new|revised|real|actual|hidden|secret) instructions?\\b|\\byour (?:new|real|actual|true) (?:instructions?|task|goal|objective|purpose) (?:is|are)\\b` },
  { rule: 'addressed_to_ai', source: `\\b(?:attention|note|message|instructions?|important|notice|hey|dear) ?,? ?(?:to |for )?(?:the |any |all )?${AI}s? ?[:,!]` },
  { rule: 'addressed_to_ai', source: `\\bif you are an? (?:ai|llm|language model|assistant|agent|bot|automated (?:agent|system|tool)|gpt)\\b` },
  { rule: 'addressed_to_ai', source: `\\b${AI}s? (?:must|should|shall|needs? to) (?:now )?(?:ignore|disregard|type|enter|send|click|run|execute|open|visit|reply)\\b` },
  { rule: 'credentials', source: `\\b${GIVE} (?:(?:it|in|here|below|now|us|me|them|again|down|out|back|immediately) )*(?:(?:with|to|into|in|us|me) )?(?:your|the|my|our|their|his|her|this|that|all|any|the user's|user's) ${SECRET_KIND}\\b` },
  { rule: 'credentials', source: `\\bwhat(?:'s| is) (?:your|the) ${SECRET_KIND}\\b` },
  { rule: 'command', source: `\\b(?:run|execute|exec|launch|paste|enter|type|copy) (?:(?:the|this|these|that|following|below|above|next) )+(?:(?:shell|terminal|powershell|bash|cmd) )?(?:commands?|scripts?|one-liner|snippet)\\b` },
  { rule: 'command', source: `\\b(?:run|execute|exec) (?:(?:the|this|these|that|following|below|above|next) )+code\\b` },
  { rule: 'command', source: `\\b(?:open|launch|start) (?:a |the |your )?(?:terminal|shell|console|command prompt|powershell|cmd|run dialog) and (?:run|type|paste|enter|execute)\\b` },
  { rule: 'command', source: `\\b(?:curl|wget) \\S[^|;]{0,200}\\| ?(?:sudo )?(?:ba|z|da)?sh\\b|\\b(?:powershell|pwsh)(?:\\.exe)? (?:-\\w+ ){0,4}-(?:e|ec|enc|encodedcommand)\\b|\\| ?iex\\b|\\binvoke-expression\\b|\\brm -rf /` },
  { rule: 'command', source: `\\b(?:press|hit|hold) (?:the )?(?:windows|win|super|meta) ?(?:key )?(?:\\+ ?|and )r\\b` },
  { rule: 'copy_paste', source: `\\bcopy\\b[^.!?]{0,80}?\\band paste\\b|\\bpaste (?:it |this |that |them )?(?:in|into) (?:the |a |your )?(?:terminal|shell|console|command prompt|powershell|run (?:dialog|box))\\b` },
  { rule: 'send_to', source: `\\b(?:send|forward|email|upload|post|transfer|wire|exfiltrate|submit|share) (?:\\S+ ){0,5}?to (?:me\\b|this (?:address|email|number|url|link|server|site|webhook)\\b|the following\\b|[\\w.+-]+@[\\w-]+\\.[\\w.]+|${URL})` },
  { rule: 'visit_url', source: `\\b(?:visit|go to|open|navigate to|browse to|head (?:over )?to|follow (?:this|the) link|click (?:on )?(?:this|the) link|log ?in at|sign ?in at|download (?:it |this )?from) (?:\\S+ ){0,3}?${URL}` },
];

const COMPILED = RULES.map(({ rule, source }) => ({ rule, pattern: new RegExp(foldPattern(source), 'g') }));

/**
 * Instruction-like passages in the texts, first found first, at most MAX_FLAGS; the same
 * passage found in a line and again in the joined text is reported once.
 */
export function detectInstructions(items: Iterable<ScreenTextItem>, max = MAX_FLAGS): InstructionFlag[] {
  const flags: InstructionFlag[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (!item.text) continue;
    const text = item.text.slice(0, MAX_SCANNED_CHARS);
    const { folded, index } = fold(text);
    for (const { rule, pattern } of COMPILED) {
      pattern.lastIndex = 0;
      for (let match = pattern.exec(folded); match; match = pattern.exec(folded)) {
        if (match[0] === '') {
          pattern.lastIndex++;
          continue;
        }
        const key = `${rule}:${match[0]}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const start = index[match.index] ?? 0;
        const end = (index[match.index + match[0].length - 1] ?? text.length - 1) + 1;
        flags.push({ text: snippet(text, start, end), source: item.source, rule });
        if (flags.length >= max) return flags;
      }
    }
  }
  return flags;
}

/** The match with a little context, cut at spaces, on one line. */
function snippet(text: string, start: number, end: number): string {
  let from = Math.max(0, start - CONTEXT_CHARS);
  let to = Math.min(text.length, end + CONTEXT_CHARS);
  if (from > 0) from = Math.min(start, nextSpace(text, from));
  if (to < text.length) to = Math.max(end, previousSpace(text, to));
  const flat = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return boundText(neutralizeScreenText(flat), MAX_SNIPPET_CHARS);
}

function nextSpace(text: string, at: number): number {
  const found = text.slice(at).search(/\s/);
  return found < 0 ? at : at + found + 1;
}

function previousSpace(text: string, at: number): number {
  const found = text.slice(0, at).search(/\s\S*$/);
  return found < 0 ? at : found;
}

const LOOK_ALIKES: Record<string, string> = {
  '0': 'o', '1': 'i', l: 'i', ı: 'i', і: 'i', ӏ: 'i', а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', х: 'x', у: 'y', ѕ: 's', ј: 'j', ԁ: 'd', ɡ: 'g',
  ι: 'i', ο: 'o', α: 'a', ε: 'e', ρ: 'p', κ: 'k', τ: 't', ν: 'v',
  '\u2018': "'", '\u2019': "'", '\u02bc': "'", '`': "'", '\u201c': '"', '\u201d': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2212': '-',
};

/** Characters dropped before matching: zero-width, bidi, soft hyphen, the tag block. */
// Matching combining marks one by one is the point here.
// eslint-disable-next-line no-misleading-character-class
const DROPPED = /[\u00ad\u034f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff]|\udb40[\udc00-\udc7f]/y;

/** The folded text, and for each of its characters the index of the character it came from. */
function fold(text: string): { folded: string; index: number[] } {
  let folded = '';
  const index: number[] = [];
  let space = false;
  for (let i = 0; i < text.length; i++) {
    DROPPED.lastIndex = i;
    const dropped = DROPPED.exec(text);
    if (dropped) {
      i += dropped[0].length - 1;
      continue;
    }
    let char = text.charAt(i);
    if (/\s/.test(char)) {
      if (!space && folded !== '') {
        folded += ' ';
        index.push(i);
      }
      space = true;
      continue;
    }
    space = false;
    const code = char.charCodeAt(0);
    if (code >= 0xff01 && code <= 0xff5e) char = String.fromCharCode(code - 0xfee0); // full-width ASCII
    // Lower case may be longer (İ): each of its characters points back to the same one.
    for (const lower of char.toLowerCase()) {
      folded += LOOK_ALIKES[lower] ?? lower;
      index.push(i);
    }
  }
  return { folded, index };
}

/** A rule is written in plain English; its letters are folded like the text (l reads as i). */
function foldPattern(source: string): string {
  return source.replace(/l/g, 'i');
}
