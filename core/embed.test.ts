import { describe, expect, it } from 'vitest';
import {
  canonicalOrigin,
  EMBED_BUSY_MESSAGE,
  iframeSnippet,
  originLines,
  scriptSnippet,
  slugFromName,
  SLUG_PATTERN,
  OPERATOR_WORDS,
  visitorLimitMessage,
} from './embed';

describe('slugFromName', () => {
  it('lowercases, drops other characters, turns spaces into hyphens and collapses repeats', () => {
    expect(slugFromName('Green Oak Tree Care')).toBe('green-oak-tree-care');
    expect(slugFromName("O'Brien & Sons -- Arborists!")).toBe('obrien-sons-arborists');
    expect(slugFromName('  Tree   Surgeons  ')).toBe('tree-surgeons');
    expect(slugFromName('Łódź Trees 24/7')).toBe('d-trees-247');
    expect(slugFromName('!!!')).toBe('');
  });

  it('gives slugs the server accepts', () => {
    for (const name of ['Green Oak', 'A - B', 'x--y', ' -lead and trail- ']) expect(slugFromName(name)).toMatch(SLUG_PATTERN);
  });
});

describe('canonicalOrigin', () => {
  it('accepts scheme, host and port, with or without a trailing slash', () => {
    expect(canonicalOrigin('https://www.example.com')).toBe('https://www.example.com');
    expect(canonicalOrigin('https://www.example.com/')).toBe('https://www.example.com');
    expect(canonicalOrigin('HTTPS://Example.COM')).toBe('https://example.com');
    expect(canonicalOrigin('http://localhost:8080')).toBe('http://localhost:8080');
    expect(canonicalOrigin('https://example.com:443')).toBe('https://example.com');
  });

  it('refuses paths, queries, other schemes and words', () => {
    for (const text of ['https://example.com/page', 'https://example.com?x=1', 'ftp://example.com', 'example.com', 'javascript:alert(1)', '']) {
      expect(canonicalOrigin(text), text).toBeNull();
    }
  });

  it('refuses what the URL parser takes but frame-ancestors would read as a wildcard, a keyword or a new directive', () => {
    for (const text of ['https://*', 'https://*.example.com', 'https://a.com;script-src', "'self'", "https://a.com'", 'https://a .com', 'https://u:p@a.com', 'https://a.com:99999', 'https://a.com#x', 'https://-a.com']) {
      expect(canonicalOrigin(text), text).toBeNull();
    }
    expect(canonicalOrigin('https://www.example.com:8443')).toBe('https://www.example.com:8443');
    expect(canonicalOrigin('http://[::1]:3000')).toBe('http://[::1]:3000');
  });

  it('reads one origin per line, ignoring blank lines', () => {
    expect(originLines('https://a.example\n\n  https://b.example  \r\n')).toEqual(['https://a.example', 'https://b.example']);
  });
});

describe('embed snippets', () => {
  it('copies an iframe of width 100%, height 600 at /embed/{slug}, with the optional resizer', () => {
    const snippet = iframeSnippet('https://trees.example/', 'green-oak');
    expect(snippet).toContain('<iframe src="https://trees.example/embed/green-oak" width="100%" height="600"');
    expect(snippet).toContain('<script src="https://trees.example/widget.js" async></script>');
  });

  it('gives the script-tag form: the element and the loader', () => {
    expect(scriptSnippet('https://trees.example', 'green-oak')).toBe(
      '<tree-estimator slug="green-oak"></tree-estimator>\n<script src="https://trees.example/widget.js" async></script>',
    );
  });
});

describe('OPERATOR_WORDS', () => {
  it("catches how the server is set up, not the electricity network operator a visitor must call", () => {
    for (const text of ['Read by the AI model', 'No credits left', 'Ask the operator', 'Check the configuration', 'vision provider']) {
      expect(OPERATOR_WORDS.test(text), text).toBe(true);
    }
    expect(OPERATOR_WORDS.test('Keep at least 10 ft (3 m) clear and contact the network operator first.')).toBe(false);
  });
});

describe('visitorLimitMessage', () => {
  it('says it is the visitor\'s own limit and the real wait, in whole minutes rounded up', () => {
    expect(visitorLimitMessage(3000)).toBe('You have made several estimates; please try again in 50 minutes');
    expect(visitorLimitMessage(3600)).toBe('You have made several estimates; please try again in 60 minutes');
    expect(visitorLimitMessage(61)).toBe('You have made several estimates; please try again in 2 minutes');
    expect(visitorLimitMessage(120)).toBe('You have made several estimates; please try again in 2 minutes');
  });

  it('says "1 minute" for the last minute, down to the last second', () => {
    for (const seconds of [60, 59, 1, 0]) {
      expect(visitorLimitMessage(seconds), String(seconds)).toBe('You have made several estimates; please try again in 1 minute');
    }
  });

  it('is not the business\'s "busy", and names nothing of how the server is set up', () => {
    expect(visitorLimitMessage(600)).not.toBe(EMBED_BUSY_MESSAGE);
    expect(OPERATOR_WORDS.test(visitorLimitMessage(600))).toBe(false);
  });
});
