/// One key press of the interactive mode, decoded from the bytes a terminal sends.
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.feed(Array("\u{1B}[A".utf8))  // [.up]
/// ```
enum Key: Hashable, Sendable {
    /// A character typed (any script, with its diacritics).
    case character(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    case insert, delete
    case tab
    /// Shift-Tab (`ESC [ Z`).
    case shiftTab
    case enter
    /// A lone Esc (not the start of an escape sequence).
    case escape
    case backspace
    /// A function key, F1 = 1 … F12 = 12.
    case function(Int)
    /// Ctrl with a letter, as the lower-case letter: Ctrl-C is `.control("c")`.
    case control(Character)
    /// The start of a bracketed paste (`ESC [ 200 ~`): what follows up to ``pasteEnd`` was
    /// pasted, not typed.
    case pasteStart
    /// The end of a bracketed paste (`ESC [ 201 ~`).
    case pasteEnd
    /// A sequence this decoder does not know (ignored by the interactive mode).
    case unknown

    /// Ctrl-C.
    static let interrupt = Key.control("c")
    /// Ctrl-D.
    static let endOfInput = Key.control("d")
}
