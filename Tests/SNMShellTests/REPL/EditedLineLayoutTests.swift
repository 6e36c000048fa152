import Foundation
import Testing

@testable import SNMShell

private func layout(columns: Int, prompt: String = "", typed: String) -> EditedLineLayout {
  LibEditLineReader.prepareLocale()
  var layout = EditedLineLayout(columns: columns)
  layout.add(prompt: prompt)
  for scalar in typed.unicodeScalars { layout.add(wchar_t(bitPattern: scalar.value)) }
  return layout
}

@Test func escapesInThePromptTakeNoRoom() {
  let bold = layout(columns: 40, prompt: "\u{1}\u{1B}[1m\u{1}snm\u{1}\u{1B}[0m\u{1}> ", typed: "")
  #expect(bold.row == 0 && bold.column == 5)
}

@Test func aFullRowMovesTheCursorToTheNext() {
  #expect(layout(columns: 10, prompt: "snm> ", typed: "abcd").column == 9)
  let full = layout(columns: 10, prompt: "snm> ", typed: "abcde")
  #expect(full.row == 1 && full.column == 0)
  let third = layout(columns: 10, prompt: "snm> ", typed: String(repeating: "x", count: 17))
  #expect(third.row == 2 && third.column == 2)
}

@Test func aWideCharacterThatDoesNotFitGoesToTheNextRowWhole() {
  let fits = layout(columns: 10, typed: "12345678한")
  #expect(fits.row == 1 && fits.column == 0)
  let gap = layout(columns: 10, typed: "123456789한")
  #expect(gap.row == 1 && gap.column == 2)
}

@Test func tabsControlsAndNewlinesAsLibEditShowsThem() {
  #expect(layout(columns: 40, typed: "abc\t").column == 8)
  #expect(layout(columns: 40, typed: "a\u{1}").column == 3)  // ^A
  #expect(layout(columns: 40, typed: "a\u{200B}").column == 1)  // zero width
  let second = layout(columns: 40, prompt: "> ", typed: "ab\ncd")
  #expect(second.row == 1 && second.column == 2)
}
