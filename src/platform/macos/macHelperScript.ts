// The macOS helper: JXA (JavaScript for Automation) run by `osascript -l JavaScript`, reaching
// AppKit, CoreGraphics and the Accessibility API through the ObjC bridge. It speaks the Linux
// bridge's protocol: one JSON request a line on stdin ({id, cmd, ...}), one answer a line on
// stdout ({id, ok: true, ...} or {id, error}); it exits when stdin closes. Frames are in points
// (Quartz global coordinates: top-left of the main display, y down); the client scales them to
// screen pixels. JXA has no run loop we can share with a blocking stdin read, so nothing here
// listens for events: the interrupt watch polls `input` (event counters and key states).

/** Every command the client sends; a test checks the script handles each. */
export const MAC_COMMANDS = ['permissions', 'screens', 'windows', 'elements', 'focused', 'perform', 'input', 'prompt'] as const;
export type MacCommand = (typeof MAC_COMMANDS)[number];

export const MAC_HELPER_SCRIPT = String.raw`
ObjC.import('Cocoa');
ObjC.import('ApplicationServices');
ObjC.import('CoreGraphics');
// CGWindowListCopyWindowInfo returns a +1 CFArrayRef: hand it to ARC as an NSArray.
ObjC.bindFunction('CFBridgingRelease', ['id', ['void *']]);

var out = $.NSFileHandle.fileHandleWithStandardOutput;
function send(obj) {
  out.writeData($(JSON.stringify(obj) + '\n').dataUsingEncoding($.NSUTF8StringEncoding));
}
// AX values come back as CF references: cast to an ObjC object, then unwrap only plain values
// (strings, numbers); an element or an AXValue stays an object.
function js(ref) {
  if (ref === undefined || ref === null) return undefined;
  try {
    var obj = ObjC.castRefToObject(ref);
    if (obj.isKindOfClass($.NSString) || obj.isKindOfClass($.NSNumber)) return obj.js;
    return undefined;
  } catch (e) { return undefined; }
}
function str(obj) {
  var v = ObjC.unwrap(obj);
  return typeof v === 'string' ? v : undefined;
}
function copyAttr(el, name) {
  var ref = Ref();
  var err = $.AXUIElementCopyAttributeValue(el, $(name), ref);
  if (err !== 0) return undefined;
  return ref[0];
}
function attrString(el, name) {
  var v = js(copyAttr(el, name));
  return typeof v === 'string' ? v : (typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined);
}
function attrBool(el, name) {
  var v = js(copyAttr(el, name));
  return v === true || v === 1;
}
// An AXValue's description reads "{value = x:12.000000 y:34.000000 type = kAXValueCGPointType}":
// parsing it avoids passing struct pointers through the bridge (AXValueGetValue wants a CGPoint*).
function axNumbers(ref, a, b) {
  if (!ref) return undefined;
  var text = ObjC.castRefToObject(ref).description.js;
  var m = new RegExp(a + ':(-?[0-9.]+) ' + b + ':(-?[0-9.]+)').exec(text);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}
function frameOf(el) {
  var p = axNumbers(copyAttr(el, 'AXPosition'), 'x', 'y');
  var s = axNumbers(copyAttr(el, 'AXSize'), 'w', 'h');
  if (!p || !s) return undefined;
  return { x: p[0], y: p[1], width: s[0], height: s[1] };
}
function children(el, name) {
  var v = copyAttr(el, name || 'AXChildren');
  if (!v) return [];
  var arr = ObjC.castRefToObject(v);
  var list = [];
  var n = arr.count;
  for (var i = 0; i < n; i++) list.push(arr.objectAtIndex(i));
  return list;
}

function permissions() {
  // Before macOS 10.15 there is no such call (and no such permission); null: not known, never a guess.
  var screen = typeof $.CGPreflightScreenCaptureAccess === 'function' ? !!$.CGPreflightScreenCaptureAccess() : null;
  return { accessibility: !!$.AXIsProcessTrusted(), screenRecording: screen };
}
function prompt() {
  // kAXTrustedCheckOptionPrompt's value; an NSNumber bool is a CFBoolean.
  var opts = $.NSDictionary.dictionaryWithObjectForKey($.NSNumber.numberWithBool(true), $('AXTrustedCheckOptionPrompt'));
  var trusted = !!$.AXIsProcessTrustedWithOptions(opts);
  if (typeof $.CGRequestScreenCaptureAccess === 'function') $.CGRequestScreenCaptureAccess();
  return { accessibility: trusted };
}

function screens() {
  var list = $.NSScreen.screens;
  var mainH = list.count > 0 ? list.objectAtIndex(0).frame.size.height : 0;
  var result = [];
  for (var i = 0; i < list.count; i++) {
    var s = list.objectAtIndex(i);
    var f = s.frame;
    // AppKit's y goes up from the main display's bottom; Quartz's goes down from its top.
    result.push({ x: f.origin.x, y: mainH - f.origin.y - f.size.height, width: f.size.width, height: f.size.height, scale: s.backingScaleFactor, main: i === 0 });
  }
  return { screens: result };
}

function appsByPid() {
  var map = {};
  var apps = $.NSWorkspace.sharedWorkspace.runningApplications;
  for (var i = 0; i < apps.count; i++) {
    var a = apps.objectAtIndex(i);
    map[a.processIdentifier] = { name: str(a.localizedName), bundleId: str(a.bundleIdentifier) };
  }
  return map;
}
function windows() {
  var info = ObjC.deepUnwrap($.CFBridgingRelease($.CGWindowListCopyWindowInfo($.kCGWindowListOptionOnScreenOnly | $.kCGWindowListExcludeDesktopElements, 0))) || [];
  var apps = appsByPid();
  var front = $.NSWorkspace.sharedWorkspace.frontmostApplication;
  var frontPid = front ? front.processIdentifier : -1;
  var result = [];
  for (var i = 0; i < info.length; i++) {
    var w = info[i];
    var b = w.kCGWindowBounds || {};
    var app = apps[w.kCGWindowOwnerPID] || {};
    result.push({
      id: String(w.kCGWindowNumber), title: w.kCGWindowName || '', pid: w.kCGWindowOwnerPID, layer: w.kCGWindowLayer,
      owner: w.kCGWindowOwnerName || '', appName: app.name || w.kCGWindowOwnerName || '', bundleId: app.bundleId,
      bounds: { x: b.X, y: b.Y, width: b.Width, height: b.Height },
    });
  }
  return { windows: result, frontPid: frontPid };
}

var ROLE_WORTH = { AXButton: 1, AXMenuItem: 1, AXMenuBarItem: 1, AXCheckBox: 1, AXRadioButton: 1, AXTextField: 1, AXSecureTextField: 1,
  AXTextArea: 1, AXComboBox: 1, AXPopUpButton: 1, AXLink: 1, AXStaticText: 1, AXRow: 1, AXCell: 1, AXTab: 1, AXSlider: 1,
  AXIncrementor: 1, AXDisclosureTriangle: 1, AXMenuButton: 1, AXImage: 1, AXSearchField: 1 };
var refs = {};
var walk = 0;
function elements(req) {
  if (!$.AXIsProcessTrusted()) throw new Error('ACCESSIBILITY_DENIED');
  var front = $.NSWorkspace.sharedWorkspace.frontmostApplication;
  var pid = req.pid || (front ? front.processIdentifier : 0);
  var app = $.AXUIElementCreateApplication(pid);
  var appName = front && front.processIdentifier === pid ? str(front.localizedName) || '' : '';
  walk++;
  refs = {};
  var max = req.max || 2000;
  var found = [];
  var wins = req.activeOnly === false ? children(app, 'AXWindows') : [copyAttr(app, 'AXFocusedWindow')].filter(Boolean);
  var deadline = Date.now() + (req.budgetMs || 3000);
  function visit(el, depth, ancestors, win) {
    if (found.length >= max || depth > 40 || Date.now() > deadline) return;
    var role = attrString(el, 'AXRole') || '';
    var subrole = attrString(el, 'AXSubrole') || '';
    var name = attrString(el, 'AXTitle') || attrString(el, 'AXDescription') || '';
    var frame = frameOf(el);
    if (frame && frame.width > 0 && frame.height > 0 && (ROLE_WORTH[role] || name)) {
      var states = [];
      if (attrBool(el, 'AXEnabled')) states.push('enabled');
      if (attrBool(el, 'AXFocused')) states.push('focused');
      if (attrBool(el, 'AXSelected')) states.push('selected');
      var item = { role: role, subrole: subrole, name: name, frame: frame, states: states, ancestors: ancestors.slice(-4), window: win };
      if (role !== 'AXSecureTextField') {
        var value = js(copyAttr(el, 'AXValue'));
        if (typeof value === 'string') item.value = value.slice(0, 2000);
        if (typeof value === 'number') item.checked = value;
      }
      item.ref = walk + ':' + found.length;
      refs[item.ref] = el;
      found.push(item);
    }
    var next = name ? ancestors.concat([{ role: role, subrole: subrole, name: name }]) : ancestors;
    var kids = children(el);
    for (var i = 0; i < kids.length; i++) visit(kids[i], depth + 1, next, win);
  }
  // An open context menu is a child of the application itself, outside every window.
  var top = children(app);
  for (var m = 0; m < top.length; m++) if (attrString(top[m], 'AXRole') === 'AXMenu') wins.push(top[m]);
  for (var w = 0; w < wins.length; w++) {
    var winName = attrString(wins[w], 'AXTitle') || '';
    visit(wins[w], 0, [], { name: winName, role: attrString(wins[w], 'AXRole') === 'AXMenu' ? 'AXMenu' : attrString(wins[w], 'AXSubrole') || 'AXWindow', active: w === 0 });
  }
  return { elements: found, app: appName, pid: pid, cut: found.length >= max || Date.now() > deadline };
}
function focused() {
  if (!$.AXIsProcessTrusted()) throw new Error('ACCESSIBILITY_DENIED');
  var el = copyAttr($.AXUIElementCreateSystemWide(), 'AXFocusedUIElement');
  if (!el) return { element: null };
  var states = [];
  if (attrBool(el, 'AXEnabled')) states.push('enabled');
  states.push('focused');
  return { element: { role: attrString(el, 'AXRole') || '', subrole: attrString(el, 'AXSubrole') || '', name: attrString(el, 'AXTitle') || attrString(el, 'AXDescription') || '', states: states } };
}
function perform(req) {
  var el = refs[req.ref];
  if (!el) throw new Error('the element is gone (read again): ' + req.ref);
  if (!attrBool(el, 'AXEnabled')) throw new Error('the element is disabled');
  var names = actionNames(el);
  if (names.indexOf('AXPress') < 0) throw new Error('the element offers no press action (it has: ' + (names.join(', ') || 'none') + ')');
  if (req.dryRun) return { action: 'press' };
  var err = $.AXUIElementPerformAction(el, $('AXPress'));
  if (err !== 0) throw new Error('AXPress failed (AXError ' + err + ')');
  return { action: 'press' };
}
function actionNames(el) {
  var ref = Ref();
  if ($.AXUIElementCopyActionNames(el, ref) !== 0 || !ref[0]) return [];
  var arr = ObjC.castRefToObject(ref[0]);
  var names = [];
  for (var i = 0; i < arr.count; i++) names.push(str(arr.objectAtIndex(i)));
  return names;
}

// The person's input since the helper started: the HID system's event counters (no permission
// needed to read them), the pointer, and whether each asked key is down (the stop hotkey).
var HID = 1;
function input(req) {
  var keys = $.CGEventSourceCounterForEventType(HID, 10);
  var buttons = $.CGEventSourceCounterForEventType(HID, 1) + $.CGEventSourceCounterForEventType(HID, 3) + $.CGEventSourceCounterForEventType(HID, 25);
  var loc = $.NSEvent.mouseLocation;
  var list = $.NSScreen.screens;
  var mainH = list.count > 0 ? list.objectAtIndex(0).frame.size.height : 0;
  var down = [];
  var codes = req.keyCodes || [];
  for (var i = 0; i < codes.length; i++) down.push(!!$.CGEventSourceKeyState(HID, codes[i]));
  var flags = Number($.CGEventSourceFlagsState(HID));
  return { keys: keys, buttons: buttons, pointer: { x: loc.x, y: mainH - loc.y }, down: down, flags: flags };
}

var handlers = { permissions: permissions, screens: screens, windows: windows, elements: elements, focused: focused, perform: perform, input: input, prompt: prompt };

function handle(line) {
  var req;
  try { req = JSON.parse(line); } catch (e) { return; }
  try {
    var fn = handlers[req.cmd];
    if (!fn) throw new Error('unknown command ' + req.cmd);
    var answer = fn(req);
    answer.id = req.id;
    answer.ok = true;
    send(answer);
  } catch (e) {
    send({ id: req.id, error: String(e && e.message ? e.message : e) });
  }
}

function run() {
  var input = $.NSFileHandle.fileHandleWithStandardInput;
  var buffer = '';
  send({ hello: true, permissions: permissions() });
  for (;;) {
    var data = input.availableData;
    if (data.length === 0) return '';
    buffer += $.NSString.alloc.initWithDataEncoding(data, $.NSUTF8StringEncoding).js;
    var at;
    while ((at = buffer.indexOf('\n')) >= 0) {
      var line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (line.trim()) handle(line);
    }
  }
}
`;
