// The helper's UI Automation part (C#, compiled by Add-Type with the Win32 part of
// uiaHelperScript.ts): one cached walk of a window's control view, the focused element, and a
// pointer-free press through the element's patterns. Refs name the elements of the last walk.

export const UIA_TREE_CSHARP = String.raw`
public static class GaiUia {
  static readonly Dictionary<string, AutomationElement> refs = new Dictionary<string, AutomationElement>();
  static int generation = 0;
  const int MaxElements = 3000;
  const int MaxText = 2000;

  static CacheRequest Request() {
    var cr = new CacheRequest();
    cr.TreeFilter = Automation.ControlViewCondition;
    cr.TreeScope = TreeScope.Element | TreeScope.Descendants; // the whole subtree in one cross-process call
    cr.Add(AutomationElement.NameProperty);
    cr.Add(AutomationElement.ControlTypeProperty);
    cr.Add(AutomationElement.BoundingRectangleProperty);
    cr.Add(AutomationElement.IsEnabledProperty);
    cr.Add(AutomationElement.HasKeyboardFocusProperty);
    cr.Add(AutomationElement.IsOffscreenProperty);
    cr.Add(AutomationElement.IsPasswordProperty);
    cr.Add(AutomationElement.ProcessIdProperty);
    cr.Add(TogglePattern.ToggleStateProperty);
    cr.Add(SelectionItemPattern.IsSelectedProperty);
    cr.Add(ExpandCollapsePattern.ExpandCollapseStateProperty);
    cr.Add(ValuePattern.ValueProperty);
    return cr;
  }

  static string States(AutomationElement e, bool focusedOnly) {
    var s = new List<string>();
    var c = e.Cached;
    if (c.IsEnabled) s.Add("\"enabled\"");
    if (c.HasKeyboardFocus) s.Add("\"focused\"");
    if (!focusedOnly) {
      object t = e.GetCachedPropertyValue(TogglePattern.ToggleStateProperty, true);
      if (t is ToggleState) s.Add((ToggleState)t == ToggleState.On ? "\"checkable\",\"checked\"" : "\"checkable\"");
      object sel = e.GetCachedPropertyValue(SelectionItemPattern.IsSelectedProperty, true);
      if (sel is bool && (bool)sel) s.Add("\"selected\"");
      object ec = e.GetCachedPropertyValue(ExpandCollapsePattern.ExpandCollapseStateProperty, true);
      if (ec is ExpandCollapseState && (ExpandCollapseState)ec == ExpandCollapseState.Expanded) s.Add("\"expanded\"");
    }
    return "[" + string.Join(",", s) + "]";
  }

  static string Element(AutomationElement e, Rect r, string window, string ancestors, string reference) {
    var c = e.Cached;
    object t = e.GetCachedPropertyValue(TogglePattern.ToggleStateProperty, true);
    return "{" + Text(e) + "\"name\":" + GaiJson.S(c.Name) + ",\"controlType\":" + GaiJson.S(c.ControlType.ProgrammaticName) + "," + GaiJson.R(r.X, r.Y, r.Width, r.Height)
      + ",\"states\":" + States(e, false) + ",\"password\":" + (c.IsPassword ? "true" : "false") + ",\"toggles\":" + (t is ToggleState ? "true" : "false")
      + ",\"pid\":" + c.ProcessId + ",\"app\":" + GaiJson.S(GaiWin.App((uint)c.ProcessId)) + ",\"window\":" + window + ",\"ancestors\":[" + ancestors + "],\"ref\":" + GaiJson.S(reference) + "}";
  }

  /** A field's value (never a password's), its start when long. */
  static string Text(AutomationElement e) {
    if (e.Cached.IsPassword) return "";
    string v = e.GetCachedPropertyValue(ValuePattern.ValueProperty, true) as string;
    if (v == null) return "";
    bool cut = v.Length > MaxText;
    return "\"text\":" + GaiJson.S(cut ? v.Substring(0, MaxText) : v) + ",\"textCut\":" + (cut ? "true" : "false") + ",";
  }

  /** Boxes are clipped to the window: a scrolled-away part of a list is not where a click lands. */
  static void Walk(AutomationElement e, Rect clip, string window, List<string> named, List<string> output, int depth) {
    if (output.Count >= MaxElements || depth > 60) return;
    foreach (AutomationElement child in e.CachedChildren) {
      var c = child.Cached;
      Rect r = Rect.Intersect(c.BoundingRectangle, clip);
      if (c.IsOffscreen || r.IsEmpty || r.Width < 1 || r.Height < 1) { Walk(child, clip, window, named, output, depth + 1); continue; }
      string reference = "g" + generation + "e" + output.Count;
      int from = Math.Max(0, named.Count - 4);
      output.Add(Element(child, r, window, string.Join(",", named.GetRange(from, named.Count - from)), reference));
      refs[reference] = child;
      bool pushed = !string.IsNullOrEmpty(c.Name);
      if (pushed) named.Add("{\"role\":" + GaiJson.S(c.ControlType.ProgrammaticName) + ",\"name\":" + GaiJson.S(c.Name) + "}");
      Walk(child, clip, window, named, output, depth + 1);
      if (pushed) named.RemoveAt(named.Count - 1);
    }
  }

  public static string Elements(bool activeOnly) {
    refs.Clear();
    generation++;
    var output = new List<string>();
    IntPtr active = GaiWin.GetForegroundWindow();
    var roots = new List<IntPtr>();
    if (activeOnly) { if (active != IntPtr.Zero) roots.Add(active); }
    else { foreach (var h in GaiWin.Visible()) { roots.Add(h); if (roots.Count >= 8) break; } }
    var cr = Request();
    foreach (var h in roots) {
      AutomationElement root;
      try { root = AutomationElement.FromHandle(h).GetUpdatedCache(cr); } catch (ElementNotAvailableException) { continue; }
      string window = "{\"name\":" + GaiJson.S(root.Cached.Name) + ",\"role\":\"frame\",\"active\":" + (h == active ? "true" : "false") + "}";
      Walk(root, root.Cached.BoundingRectangle, window, new List<string>(), output, 0);
    }
    return "\"elements\":[" + string.Join(",", output) + "]";
  }

  public static string Focused() {
    AutomationElement e = AutomationElement.FocusedElement;
    if (e == null) return "\"focused\":null";
    var cr = Request(); cr.TreeScope = TreeScope.Element;
    e = e.GetUpdatedCache(cr);
    var c = e.Cached;
    return "\"focused\":{\"name\":" + GaiJson.S(c.Name) + ",\"controlType\":" + GaiJson.S(c.ControlType.ProgrammaticName) + ",\"password\":" + (c.IsPassword ? "true" : "false") + ",\"states\":" + States(e, true) + "}";
  }

  /** A pointer-free press: the first pattern the element offers, in this order. */
  public static string Perform(string reference, bool dryRun) {
    AutomationElement e;
    if (!refs.TryGetValue(reference, out e)) throw new InvalidOperationException("the element " + reference + " is not from the last reading of the tree; read it again");
    try {
      if (!e.Current.IsEnabled) throw new InvalidOperationException("the element is disabled");
      object p;
      if (e.TryGetCurrentPattern(InvokePattern.Pattern, out p)) { if (!dryRun) ((InvokePattern)p).Invoke(); return "\"action\":\"invoke\""; }
      if (e.TryGetCurrentPattern(TogglePattern.Pattern, out p)) { if (!dryRun) ((TogglePattern)p).Toggle(); return "\"action\":\"toggle\""; }
      if (e.TryGetCurrentPattern(SelectionItemPattern.Pattern, out p)) { if (!dryRun) ((SelectionItemPattern)p).Select(); return "\"action\":\"select\""; }
      if (e.TryGetCurrentPattern(ExpandCollapsePattern.Pattern, out p)) {
        var ec = (ExpandCollapsePattern)p;
        bool open = ec.Current.ExpandCollapseState == ExpandCollapseState.Expanded;
        if (!dryRun) { if (open) ec.Collapse(); else ec.Expand(); }
        return open ? "\"action\":\"collapse\"" : "\"action\":\"expand\"";
      }
      throw new InvalidOperationException("the element offers no Invoke, Toggle, SelectionItem or ExpandCollapse pattern");
    } catch (ElementNotAvailableException) {
      throw new InvalidOperationException("the element is gone");
    }
  }
}
`;
