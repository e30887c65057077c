// The parts of System.Windows.Automation (UIAutomationClient, UIAutomationTypes) the helper's C#
// uses, with the signatures Microsoft documents, bodiless: lets Mono's mcs type-check the helper
// on Linux, where the real assemblies do not exist. Not shipped; never run.
using System;
using System.Collections;
using System.Windows;

namespace System.Windows.Automation {
  public enum TreeScope { Element = 1, Children = 2, Descendants = 4, Subtree = 7, Parent = 8, Ancestors = 16 }
  public class Condition {}
  public static class Automation { public static readonly Condition ControlViewCondition = null; }
  public class AutomationIdentifier {}
  public class AutomationProperty : AutomationIdentifier {}
  public class AutomationPattern : AutomationIdentifier {}
  public class ElementNotAvailableException : InvalidOperationException {}
  public class ControlType { public string ProgrammaticName { get { return null; } } }
  public sealed class CacheRequest {
    public Condition TreeFilter { get; set; }
    public TreeScope TreeScope { get; set; }
    public void Add(AutomationProperty property) {}
    public void Add(AutomationPattern pattern) {}
    public IDisposable Activate() { return null; }
  }
  public struct AutomationElementInformation {
    public string Name { get { return null; } }
    public ControlType ControlType { get { return null; } }
    public Rect BoundingRectangle { get { return Rect.Empty; } }
    public bool IsEnabled { get { return false; } }
    public bool HasKeyboardFocus { get { return false; } }
    public bool IsOffscreen { get { return false; } }
    public bool IsPassword { get { return false; } }
    public int ProcessId { get { return 0; } }
  }
  public class AutomationElementCollection : ICollection {
    public AutomationElement this[int index] { get { return null; } }
    public int Count { get { return 0; } }
    public bool IsSynchronized { get { return false; } }
    public object SyncRoot { get { return null; } }
    public void CopyTo(Array array, int index) {}
    public IEnumerator GetEnumerator() { return null; }
  }
  public sealed class AutomationElement {
    public static readonly AutomationProperty NameProperty = null, ControlTypeProperty = null, BoundingRectangleProperty = null, IsEnabledProperty = null,
      HasKeyboardFocusProperty = null, IsOffscreenProperty = null, IsPasswordProperty = null, ProcessIdProperty = null;
    public static readonly object NotSupported = null;
    public static AutomationElement FromHandle(IntPtr hwnd) { return null; }
    public static AutomationElement FocusedElement { get { return null; } }
    public AutomationElement GetUpdatedCache(CacheRequest request) { return null; }
    public AutomationElementInformation Cached { get { return new AutomationElementInformation(); } }
    public AutomationElementInformation Current { get { return new AutomationElementInformation(); } }
    public AutomationElementCollection CachedChildren { get { return null; } }
    public object GetCachedPropertyValue(AutomationProperty property, bool ignoreDefaultValue) { return null; }
    public bool TryGetCurrentPattern(AutomationPattern pattern, out object patternObject) { patternObject = null; return false; }
  }
  public enum ToggleState { Off = 0, On = 1, Indeterminate = 2 }
  public enum ExpandCollapseState { Collapsed = 0, Expanded = 1, PartiallyExpanded = 2, LeafNode = 3 }
  public class ValuePattern { public static readonly AutomationPattern Pattern = null; public static readonly AutomationProperty ValueProperty = null; }
  public class InvokePattern { public static readonly AutomationPattern Pattern = null; public void Invoke() {} }
  public class TogglePattern { public static readonly AutomationPattern Pattern = null; public static readonly AutomationProperty ToggleStateProperty = null; public void Toggle() {} }
  public class SelectionItemPattern { public static readonly AutomationPattern Pattern = null; public static readonly AutomationProperty IsSelectedProperty = null; public void Select() {} }
  public struct ExpandCollapsePatternInformation { public ExpandCollapseState ExpandCollapseState { get { return ExpandCollapseState.Collapsed; } } }
  public class ExpandCollapsePattern {
    public static readonly AutomationPattern Pattern = null;
    public static readonly AutomationProperty ExpandCollapseStateProperty = null;
    public ExpandCollapsePatternInformation Current { get { return new ExpandCollapsePatternInformation(); } }
    public void Expand() {}
    public void Collapse() {}
  }
}
