import { strict as assert } from 'node:assert';
import { toolAnnotations, toolTitle } from '../../src/mcp/server/serverAnnotations';
import { MAX_TOOL_NAME_CHARS, pathToolName, pathTools, targetSlug } from '../../src/mcp/server/serverPathTools';
import { hasBearerToken, newBearerToken } from '../../src/mcp/server/serverToken';
import { isLoopbackHost } from '../../src/mcp/server/serverHttp';
import { parsePort } from '../../src/mcp/server/serverCommand';
import { documentOf, homePage, networkPage, displayPage, nodeFor, pathFor } from '../brain/support/brainFixtures';

describe('gai mcp: naming, annotations and the token check', () => {
  it('names a path tool goto_<slug of its target>, within 48 characters (clients add their prefix: mcp__gai__ and a 64-character limit)', () => {
    assert.equal(pathToolName('Network settings'), 'goto_network_settings');
    assert.equal(pathToolName('  Café: Réglages / Wi-Fi!  '), 'goto_cafe_reglages_wi_fi');
    assert.equal(targetSlug('Desktop folder in Files'), 'desktop_folder_in_files');
    assert.equal(MAX_TOOL_NAME_CHARS, 48);
    const long = pathToolName('a very long target '.repeat(10));
    assert.ok(long.length <= MAX_TOOL_NAME_CHARS, long);
    assert.ok(`mcp__gai__${long}`.length <= 64, 'room for Claude Code\'s prefix');
    assert.match(long, /^goto_a_very_long_target_a_very_long_[0-9a-f]{6}$/, 'cut between words, marked with its hash');
    // Two long targets alike at the start stay apart, and each keeps its name.
    const office = pathToolName('Advanced wireless network connection settings for the office');
    const home = pathToolName('Advanced wireless network connection settings for the home');
    assert.notEqual(office, home);
    assert.equal(pathToolName('Advanced wireless network connection settings for the office'), office);
    assert.ok(office.length <= MAX_TOOL_NAME_CHARS && home.length <= MAX_TOOL_NAME_CHARS, `${office} ${home}`);
    // No Latin letters: a stable hash, still a valid name.
    const cjk = pathToolName('ネットワーク設定');
    assert.match(cjk, /^goto_path_[0-9a-f]{10}$/);
    assert.equal(pathToolName('ネットワーク設定'), cjk);
    assert.notEqual(pathToolName('ディスプレイ'), cjk);
  });

  it('offers one tool per target of the learned paths, colliding names marked with their target\'s hash, GAI tool names never reused', () => {
    const home = nodeFor(homePage());
    const network = nodeFor(networkPage(), undefined, 'Network settings');
    const display = nodeFor(displayPage(), undefined, 'Display');
    const document = documentOf(
      [home, network, display],
      [
        pathFor({ id: 'p1', from: home.key, to: network.key, target: 'network settings' }),
        // A second way to the same target is the same tool (navigate_to picks the route).
        pathFor({ id: 'p2', from: display.key, to: network.key, target: 'network settings' }),
        // Two targets, one slug.
        pathFor({ id: 'p3', from: home.key, to: display.key, target: 'réseau' }),
        pathFor({ id: 'p5', from: network.key, to: home.key, target: 'reseau' }),
        // No target recorded: the destination's label.
        { ...pathFor({ id: 'p4', from: network.key, to: display.key }), targets: [] },
      ],
    );
    const tools = pathTools(document, new Set(['goto_display']));
    const named = new Map(tools.map((t) => [t.target, t.name]));
    assert.equal(named.get('network settings'), 'goto_network_settings');
    assert.match(named.get('Display')!, /^goto_display_[0-9a-f]{6}$/);
    assert.match(named.get('reseau')!, /^goto_reseau_[0-9a-f]{6}$/);
    assert.match(named.get('réseau')!, /^goto_reseau_[0-9a-f]{6}$/);
    assert.equal(new Set(named.values()).size, 4);
    assert.deepEqual(tools.map((t) => t.name), [...tools.map((t) => t.name)].sort(), 'sorted by name');
    // The same targets give the same names, whatever else was learned.
    const again = pathTools(documentOf([home, network, display], [pathFor({ id: 'p3', from: home.key, to: display.key, target: 'réseau' }), pathFor({ id: 'p5', from: network.key, to: home.key, target: 'reseau' })]));
    assert.equal(again.find((t) => t.target === 'réseau')?.name, named.get('réseau'));
    assert.equal(tools.find((t) => t.target === 'network settings')?.description, 'Replays a learned path to network settings; no model needed.');
  });

  it('annotates by risk: read tools read-only, action and system tools destructive; titles in words', () => {
    assert.deepEqual(toolAnnotations('ocr', 'read'), { title: 'OCR', readOnlyHint: true, destructiveHint: false, openWorldHint: true });
    assert.equal(toolAnnotations('click', 'action').destructiveHint, true);
    assert.equal(toolAnnotations('click', 'action').readOnlyHint, false);
    assert.equal(toolAnnotations('launch_app', 'system').destructiveHint, true);
    assert.equal(toolTitle('screen_capture'), 'Screen capture');
    assert.equal(toolTitle('get_element_tree'), 'Get element tree');
  });

  it('accepts only "Bearer <the token>" in the Authorization header', () => {
    const token = newBearerToken();
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(newBearerToken(), token);
    assert.equal(hasBearerToken(`Bearer ${token}`, token), true);
    assert.equal(hasBearerToken(`bearer  ${token} `, token), true, 'the scheme is case-insensitive');
    assert.equal(hasBearerToken(`Bearer ${token}x`, token), false);
    assert.equal(hasBearerToken(`Bearer ${token.slice(0, -1)}`, token), false);
    assert.equal(hasBearerToken(token, token), false, 'the scheme is required');
    assert.equal(hasBearerToken(`Basic ${token}`, token), false);
    assert.equal(hasBearerToken(undefined, token), false);
    assert.equal(hasBearerToken([`Bearer ${token}`, `Bearer ${token}`], token), false, 'two headers are refused');
  });

  it('knows loopback hosts, and refuses a bad port naming the flag', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) assert.equal(isLoopbackHost(host), true, host);
    for (const host of ['0.0.0.0', '192.168.1.4', '::', 'example.com']) assert.equal(isLoopbackHost(host), false, host);
    assert.equal(parsePort('0'), 0);
    assert.equal(parsePort('8931'), 8931);
    assert.throws(() => parsePort('65536'), /--http: expected a port number from 0 to 65535, got "65536"/);
    assert.throws(() => parsePort('-1'), /--http/);
    assert.throws(() => parsePort('80a'), /--http/);
  });
});
