// The Windows helper: Windows PowerShell 5.1 (on every Windows 10/11) compiling a small C# class
// with Add-Type. It answers JSON lines by request id, like the Linux bridge: {id, cmd, ...} in,
// {id, ok: true, ...} or {id, error} out, one per line, and exits when its stdin closes. Events
// of a running watch ({event: 'stop', trigger}) have no id. Written from Microsoft's documentation
// of System.Windows.Automation and user32/dwmapi; it runs per-monitor DPI aware, so every rectangle
// is in physical pixels of the virtual screen.

import { UIA_TREE_CSHARP } from './uiaTreeCSharp';

/** Every command the client sends; a test checks the script handles each. */
export const UIA_COMMANDS = ['windows', 'active', 'activeId', 'elements', 'focused', 'perform', 'watch', 'unwatch', 'input', 'screen'] as const;
export type UiaCommand = (typeof UIA_COMMANDS)[number];

/** The Win32 part: windows, the screen, the last input, the stop hotkey and the corner. */
const WIN32_CSHARP = String.raw`
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;
using System.Windows;
using System.Windows.Automation;

public static class GaiJson {
  public static string S(string s) {
    if (s == null) return "null";
    var b = new StringBuilder("\"");
    foreach (char c in s) {
      if (c == '"' || c == '\\') { b.Append('\\'); b.Append(c); }
      else if (c < ' ') b.Append("\\u").Append(((int)c).ToString("x4"));
      else b.Append(c);
    }
    return b.Append('"').ToString();
  }
  /** Numbers in the invariant culture: some cultures write a negative sign JSON does not read. */
  public static string N(double value) {
    return ((long)Math.Round(value)).ToString(System.Globalization.CultureInfo.InvariantCulture);
  }
  public static string R(double x, double y, double w, double h) {
    return "\"x\":" + N(x) + ",\"y\":" + N(y) + ",\"width\":" + N(w) + ",\"height\":" + N(h);
  }
}

public static class GaiWin {
  [StructLayout(LayoutKind.Sequential)] public struct RECT { public int Left, Top, Right, Bottom; }
  [StructLayout(LayoutKind.Sequential)] public struct POINT { public int X, Y; }
  [StructLayout(LayoutKind.Sequential)] public struct LASTINPUTINFO { public uint cbSize; public uint dwTime; }
  [StructLayout(LayoutKind.Sequential)] public struct MSG { public IntPtr hwnd; public uint message; public IntPtr wParam; public IntPtr lParam; public uint time; public POINT pt; }
  public delegate bool EnumProc(IntPtr hwnd, IntPtr lParam);

  [DllImport("user32.dll")] public static extern bool SetProcessDpiAwarenessContext(IntPtr value);
  [DllImport("user32.dll")] public static extern IntPtr GetForegroundWindow();
  [DllImport("user32.dll")] public static extern uint GetWindowThreadProcessId(IntPtr hwnd, out uint pid);
  [DllImport("user32.dll")] public static extern bool EnumWindows(EnumProc proc, IntPtr lParam);
  [DllImport("user32.dll")] public static extern bool IsWindowVisible(IntPtr hwnd);
  [DllImport("user32.dll")] public static extern bool IsIconic(IntPtr hwnd);
  [DllImport("user32.dll", CharSet = CharSet.Unicode)] public static extern int GetWindowText(IntPtr hwnd, StringBuilder text, int max);
  [DllImport("user32.dll", CharSet = CharSet.Unicode)] public static extern int GetClassName(IntPtr hwnd, StringBuilder text, int max);
  [DllImport("user32.dll")] public static extern IntPtr GetWindow(IntPtr hwnd, uint cmd);
  [DllImport("user32.dll")] public static extern int GetWindowLong(IntPtr hwnd, int index);
  [DllImport("user32.dll")] public static extern bool GetWindowRect(IntPtr hwnd, out RECT rect);
  [DllImport("dwmapi.dll")] public static extern int DwmGetWindowAttribute(IntPtr hwnd, int attribute, out RECT value, int size);
  [DllImport("dwmapi.dll")] public static extern int DwmGetWindowAttribute(IntPtr hwnd, int attribute, out int value, int size);
  [DllImport("kernel32.dll")] public static extern IntPtr OpenProcess(uint access, bool inherit, uint pid);
  [DllImport("kernel32.dll")] public static extern bool CloseHandle(IntPtr handle);
  [DllImport("kernel32.dll", CharSet = CharSet.Unicode)] public static extern bool QueryFullProcessImageName(IntPtr process, uint flags, StringBuilder name, ref uint size);
  [DllImport("user32.dll")] public static extern bool GetLastInputInfo(ref LASTINPUTINFO info);
  [DllImport("kernel32.dll")] public static extern uint GetTickCount();
  [DllImport("user32.dll")] public static extern bool GetCursorPos(out POINT point);
  [DllImport("user32.dll")] public static extern int GetSystemMetrics(int index);
  [DllImport("user32.dll", SetLastError = true)] public static extern bool RegisterHotKey(IntPtr hwnd, int id, uint modifiers, uint vk);
  [DllImport("user32.dll")] public static extern bool UnregisterHotKey(IntPtr hwnd, int id);
  [DllImport("user32.dll")] public static extern int GetMessage(out MSG msg, IntPtr hwnd, uint min, uint max);
  [DllImport("user32.dll")] public static extern bool PeekMessage(out MSG msg, IntPtr hwnd, uint min, uint max, uint remove);
  [DllImport("user32.dll")] public static extern bool PostThreadMessage(uint thread, uint msg, IntPtr wParam, IntPtr lParam);
  [DllImport("user32.dll")] public static extern IntPtr SetTimer(IntPtr hwnd, IntPtr id, uint ms, IntPtr proc);
  [DllImport("kernel32.dll")] public static extern uint GetCurrentThreadId();

  [DllImport("user32.dll")] public static extern IntPtr SetThreadDpiAwarenessContext(IntPtr value);

  // DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2: rectangles in physical pixels on every monitor.
  // The process's awareness may be set already by powershell.exe's manifest (the call then
  // fails): the thread's is set too, on every thread that asks, before every request.
  // Both calls came with Windows 10 1703: before it boxes stay as the process sees them.
  public static bool DpiAware() {
    bool process = false;
    try { process = SetProcessDpiAwarenessContext(new IntPtr(-4)); } catch (EntryPointNotFoundException) {}
    return ThreadDpi() || process;
  }
  public static bool ThreadDpi() {
    try { return SetThreadDpiAwarenessContext(new IntPtr(-4)) != IntPtr.Zero; } catch (EntryPointNotFoundException) { return false; }
  }

  static readonly Dictionary<uint, string> apps = new Dictionary<uint, string>();
  public static string App(uint pid) {
    string name;
    if (apps.TryGetValue(pid, out name)) return name;
    name = "";
    IntPtr h = OpenProcess(0x1000, false, pid); // PROCESS_QUERY_LIMITED_INFORMATION
    if (h != IntPtr.Zero) {
      var b = new StringBuilder(1024); uint n = 1024;
      if (QueryFullProcessImageName(h, 0, b, ref n)) {
        name = System.IO.Path.GetFileName(b.ToString());
        if (name.EndsWith(".exe", StringComparison.OrdinalIgnoreCase)) name = name.Substring(0, name.Length - 4);
      }
      CloseHandle(h);
    }
    apps[pid] = name;
    return name;
  }

  static string Type(IntPtr h, string cls) {
    int ex = GetWindowLong(h, -20); // GWL_EXSTYLE
    if (cls == "#32768") return "popup_menu";
    if (cls == "#32770") return "dialog";
    if ((ex & 0x80) != 0) return "utility"; // WS_EX_TOOLWINDOW
    if (GetWindow(h, 4) != IntPtr.Zero) return "dialog"; // GW_OWNER
    return "normal";
  }

  public static string Describe(IntPtr h) {
    var t = new StringBuilder(512); GetWindowText(h, t, 512);
    var c = new StringBuilder(256); GetClassName(h, c, 256);
    uint pid; GetWindowThreadProcessId(h, out pid);
    RECT r;
    if (DwmGetWindowAttribute(h, 9, out r, Marshal.SizeOf(typeof(RECT))) != 0) GetWindowRect(h, out r); // DWMWA_EXTENDED_FRAME_BOUNDS
    return "{\"id\":" + GaiJson.S(h.ToInt64().ToString()) + ",\"title\":" + GaiJson.S(t.ToString()) + ",\"app\":" + GaiJson.S(App(pid))
      + ",\"pid\":" + GaiJson.N(pid) + ",\"class\":" + GaiJson.S(c.ToString()) + ",\"type\":" + GaiJson.S(Type(h, c.ToString())) + "," + GaiJson.R(r.Left, r.Top, r.Right - r.Left, r.Bottom - r.Top) + "}";
  }

  /** EnumWindows goes from the top of the z-order down: topmost first. */
  public static List<IntPtr> Visible() {
    var list = new List<IntPtr>();
    EnumWindows(delegate(IntPtr h, IntPtr l) {
      int cloaked = 0;
      if (!IsWindowVisible(h) || IsIconic(h)) return true;
      if (DwmGetWindowAttribute(h, 14, out cloaked, 4) == 0 && cloaked != 0) return true; // DWMWA_CLOAKED: other virtual desktops, suspended apps
      var t = new StringBuilder(2); var c = new StringBuilder(256); GetClassName(h, c, 256);
      if (GetWindowText(h, t, 2) == 0 && c.ToString() != "#32768") return true;
      list.Add(h);
      return true;
    }, IntPtr.Zero);
    return list;
  }

  public static string Windows() {
    var parts = new List<string>();
    foreach (var h in Visible()) parts.Add(Describe(h));
    return "\"windows\":[" + string.Join(",", parts) + "]";
  }

  public static string Active() {
    IntPtr h = GetForegroundWindow();
    return h == IntPtr.Zero ? "\"window\":null" : "\"window\":" + Describe(h);
  }

  public static string ActiveId() {
    IntPtr h = GetForegroundWindow();
    return "\"windowId\":" + (h == IntPtr.Zero ? "null" : GaiJson.S(h.ToInt64().ToString()));
  }

  public static string Screen() {
    // SM_XVIRTUALSCREEN..SM_CYVIRTUALSCREEN: every monitor's union, physical pixels when DPI aware.
    // SM_CXSCREEN/SM_CYSCREEN: the primary monitor, at (0,0).
    return "\"screen\":{" + GaiJson.R(GetSystemMetrics(76), GetSystemMetrics(77), GetSystemMetrics(78), GetSystemMetrics(79))
      + "},\"primary\":{" + GaiJson.R(0, 0, GetSystemMetrics(0), GetSystemMetrics(1)) + "}";
  }

  public static string Input() {
    var info = new LASTINPUTINFO(); info.cbSize = (uint)Marshal.SizeOf(typeof(LASTINPUTINFO));
    GetLastInputInfo(ref info);
    POINT p; GetCursorPos(out p);
    return "\"lastInput\":" + GaiJson.N(info.dwTime) + ",\"now\":" + GaiJson.N(GetTickCount()) + ",\"x\":" + GaiJson.N(p.X) + ",\"y\":" + GaiJson.N(p.Y);
  }

  // The stop hotkey and the fail-safe corner: one thread with a message queue. RegisterHotKey with
  // no window posts WM_HOTKEY to the registering thread; a thread timer polls the cursor.
  static Thread watcher;
  static uint watcherThread;
  public static string Watch(uint modifiers, uint vk, bool corner) {
    Unwatch();
    int error = 0; bool registered = false;
    var ready = new ManualResetEvent(false);
    watcher = new Thread(delegate() {
      ThreadDpi();
      watcherThread = GetCurrentThreadId();
      if (vk != 0) { registered = RegisterHotKey(IntPtr.Zero, 1, modifiers | 0x4000, vk); if (!registered) error = Marshal.GetLastWin32Error(); } // MOD_NOREPEAT
      if (corner) SetTimer(IntPtr.Zero, IntPtr.Zero, 50, IntPtr.Zero);
      MSG msg;
      PeekMessage(out msg, IntPtr.Zero, 0, 0, 0); // makes the thread's queue, so Unwatch's WM_QUIT always arrives
      ready.Set();
      bool wasInCorner = false;
      while (GetMessage(out msg, IntPtr.Zero, 0, 0) > 0) {
        if (msg.message == 0x0312) Console.Out.WriteLine("{\"event\":\"stop\",\"trigger\":\"hotkey\"}"); // WM_HOTKEY
        else if (msg.message == 0x0113) { // WM_TIMER: once per push into the corner
          bool inCorner = AtCorner();
          if (inCorner && !wasInCorner) Console.Out.WriteLine("{\"event\":\"stop\",\"trigger\":\"corner\"}");
          wasInCorner = inCorner;
        }
      }
      if (registered) UnregisterHotKey(IntPtr.Zero, 1);
    });
    watcher.IsBackground = true;
    watcher.Start();
    ready.WaitOne();
    return "\"hotkey\":" + (registered ? "true" : "false") + ",\"hotkeyError\":" + GaiJson.N(error) + ",\"corner\":" + (corner ? "true" : "false");
  }

  static bool AtCorner() {
    POINT p; GetCursorPos(out p);
    int x = GetSystemMetrics(76), y = GetSystemMetrics(77), w = GetSystemMetrics(78), h = GetSystemMetrics(79);
    bool left = p.X <= x, right = p.X >= x + w - 1, top = p.Y <= y, bottom = p.Y >= y + h - 1;
    return (left || right) && (top || bottom);
  }

  public static string Unwatch() {
    if (watcher != null) { PostThreadMessage(watcherThread, 0x0012, IntPtr.Zero, IntPtr.Zero); watcher.Join(1000); watcher = null; } // WM_QUIT
    return "\"unwatched\":true";
  }
}

`;

/** The C# part, compiled by Add-Type (kept apart so a test can compile it where a C# compiler exists). */
export const UIA_HELPER_CSHARP = WIN32_CSHARP + UIA_TREE_CSHARP;

/**
 * The PowerShell around it: loads the UIA assemblies, compiles the C#, says hello, then answers
 * one request per line. A request that throws answers {id, error} with the exception's message.
 */
export const UIA_HELPER_SCRIPT = String.raw`
$ErrorActionPreference = 'Stop'
# UTF-8 both ways over the raw streams: setting the console's encodings fails without a console.
$utf8 = New-Object System.Text.UTF8Encoding $false
$out = New-Object System.IO.StreamWriter -ArgumentList ([Console]::OpenStandardOutput()), $utf8
$out.AutoFlush = $true
[Console]::SetOut($out)
$in = New-Object System.IO.StreamReader -ArgumentList ([Console]::OpenStandardInput()), $utf8
try {
  Add-Type -AssemblyName UIAutomationClient, UIAutomationTypes, WindowsBase
  Add-Type -ReferencedAssemblies UIAutomationClient, UIAutomationTypes, WindowsBase -TypeDefinition $env:GAI_UIA_CSHARP
} catch {
  [Console]::Out.WriteLine((@{ hello = 'gai-uia'; fatal = $_.Exception.Message } | ConvertTo-Json -Compress))
  exit 3
}
$dpi = [GaiWin]::DpiAware()
[Console]::Out.WriteLine('{"hello":"gai-uia","version":1,"dpiAware":' + $(if ($dpi) { 'true' } else { 'false' }) + '}')
while ($true) {
  $line = $in.ReadLine()
  if ($null -eq $line) { break }
  if ($line.Trim() -eq '') { continue }
  $id = $null
  try {
    $q = ConvertFrom-Json $line
    $id = [long]$q.id
    [void][GaiWin]::ThreadDpi()
    switch ($q.cmd) {
      'windows' { $body = [GaiWin]::Windows() }
      'active' { $body = [GaiWin]::Active() }
      'activeId' { $body = [GaiWin]::ActiveId() }
      'screen' { $body = [GaiWin]::Screen() }
      'input' { $body = [GaiWin]::Input() }
      'elements' { $body = [GaiUia]::Elements([bool]$q.activeOnly) }
      'focused' { $body = [GaiUia]::Focused() }
      'perform' { $body = [GaiUia]::Perform([string]$q.ref, [bool]$q.dryRun) }
      'watch' { $body = [GaiWin]::Watch([uint32]$q.modifiers, [uint32]$q.vk, [bool]$q.corner) }
      'unwatch' { $body = [GaiWin]::Unwatch() }
      default { throw ('unknown command ' + $q.cmd) }
    }
    [Console]::Out.WriteLine('{"id":' + $id + ',"ok":true,' + $body + '}')
  } catch {
    $message = $_.Exception.Message
    if ($_.Exception.InnerException) { $message = $_.Exception.InnerException.Message }
    [Console]::Out.WriteLine((@{ id = $id; error = $message } | ConvertTo-Json -Compress))
  }
}
[GaiWin]::Unwatch() | Out-Null
`;
