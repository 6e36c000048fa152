import Foundation
import SNMQuery
import Testing

@testable import SNMShell

struct CompletionCase: Sendable, CustomStringConvertible {
  let text: String
  let word: String
  let candidates: [String]
  var description: String { text.isEmpty ? "(empty)" : text }
}

private func completer() throws -> ShellCompleter {
  ShellCompleter(catalog: SchemaCatalog(schema: try demoSchema()), variables: { ["dog", "me"] })
}

@Test(arguments: [
  CompletionCase(text: "from us", word: "us", candidates: ["user_info"]),
  CompletionCase(text: "fr", word: "fr", candidates: ["from"]),
  CompletionCase(text: "FR", word: "FR", candidates: ["FROM"]),
  CompletionCase(
    text: "from user_info select ", word: "",
    candidates: ["*", "id", "name", "age", "bio", "profile", "created_at"]),
  CompletionCase(text: "from user_info select id, na", word: "na", candidates: ["name"]),
  CompletionCase(
    text: "from dog_profile select * where ", word: "",
    candidates: ["id", "owner", "name", "age", "tags", "all", "not"]),
  CompletionCase(text: "from dog_profile select * order by o", word: "o", candidates: ["owner"]),
  // An integer: no like; text: like and ilike.
  CompletionCase(
    text: "from user_info select * where age l", word: "l", candidates: ["lt", "lte"]),
  CompletionCase(
    text: "from user_info select * where name l", word: "l", candidates: ["lt", "lte", "like"]),
  // Nothing starts so: the names holding the letters in order (fuzzy), closest first.
  CompletionCase(text: "from dgprf", word: "dgprf", candidates: ["dog_profile"]),
  CompletionCase(text: "from user_info select crat", word: "crat", candidates: ["created_at"]),
  CompletionCase(text: "rpc ", word: "", candidates: ["nearby_dogs", "sleep_for", "sum", "get"]),
  CompletionCase(text: "rpc s", word: "s", candidates: ["sleep_for", "sum"]),
  CompletionCase(text: "echo $", word: "$", candidates: ["$dog", "$me", "$env.", "$session."]),
  CompletionCase(
    text: "set format ", word: "", candidates: ["table", "expanded", "json", "ndjson", "csv"]),
  CompletionCase(text: "describe w", word: "w", candidates: ["walk_request"]),
  CompletionCase(text: "\\t", word: "\\t", candidates: ["\\timing"]),
  CompletionCase(text: "\\w", word: "\\w", candidates: ["\\watch"]),
  CompletionCase(text: "\\d", word: "\\d", candidates: ["\\d", "\\d+", "\\dt"]),
  CompletionCase(text: "tables; from m", word: "m", candidates: ["mate"]),
])
func tabOffersWhatFitsAtTheCursor(_ item: CompletionCase) throws {
  let result = try completer().complete(item.text)
  #expect(result.word == item.word)
  #expect(result.candidates == item.candidates)
}

@Test func operatorsAfterAColumnIncludeWordsAndSymbols() throws {
  let result = try completer().complete("from user_info select * where age ")
  #expect(result.candidates.starts(with: ["not", "eq", "neq", "gt", "gte", "lt", "lte"]))
  #expect(result.candidates.contains(">="))
  #expect(!result.candidates.contains("from"))
}

@Test func withoutTheDocumentTablesSeenInResultsAreOffered() {
  let catalog = SchemaCatalog()
  catalog.noteResult(table: "user_info", columns: ["id", "name"])
  let completer = ShellCompleter(catalog: catalog)
  #expect(completer.complete("from u").candidates == ["user_info"])
  #expect(completer.complete("from user_info select * where n").candidates == ["name", "not"])
}

@Test func namesThatNeedQuotesAreQuoted() {
  let catalog = SchemaCatalog()
  catalog.noteResult(table: "Order Items", columns: [])
  #expect(ShellCompleter(catalog: catalog).complete("from ").candidates == ["\"Order Items\""])
}

@Test func runCompletesScriptFilesAndDirectories() throws {
  let directory = NSTemporaryDirectory() + "snm-complete-\(UUID().uuidString)"
  try FileManager.default.createDirectory(
    atPath: directory + "/smoke", withIntermediateDirectories: true)
  FileManager.default.createFile(atPath: directory + "/setup.snm", contents: Data())
  FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data())
  FileManager.default.createFile(atPath: directory + "/smoke/01-read.snm", contents: Data())
  FileManager.default.createFile(atPath: directory + "/smoke/02-write.snm", contents: Data())
  let completer = ShellCompleter(catalog: SchemaCatalog(), directory: directory)
  #expect(completer.complete("run ").candidates == ["setup.snm", "smoke/"])
  // Inside a folder: the folder's files, the whole path replaced.
  let inside = completer.complete("run smoke/")
  #expect(inside.word == "smoke/")
  #expect(inside.candidates == ["smoke/01-read.snm", "smoke/02-write.snm"])
  #expect(completer.complete("\\i smoke/02").candidates == ["smoke/02-write.snm"])
  #expect(completer.complete("run \(directory)/smoke/0").candidates.count == 2)
}

@Test func operatorsFitTheColumnsType() throws {
  let completer = try completer()
  func operators(_ text: String) -> Set<String> {
    Set(completer.complete(text).candidates).intersection(FilterOperator.spellings)
  }
  let integer = operators("from user_info select * where age ")
  #expect(integer.isSuperset(of: ["eq", "gte", "in", "is", ">=", "isdistinct"]))
  #expect(integer.isDisjoint(with: ["like", "ilike", "cs", "fts", "adj", "~"]))
  #expect(operators("from user_info select * where name ").isSuperset(of: ["like", "ilike", "~*"]))
  let array = operators("from dog_profile select * where tags ")
  #expect(array.isSuperset(of: ["cs", "cd", "ov", "contains"]) && !array.contains("like"))
  #expect(operators("from user_info select * where profile ").isSuperset(of: ["cs", "cd"]))
  // A column the schema does not know, or of an unknown type: every operator.
  #expect(
    operators("from user_info select * where nothing ").isSuperset(of: ["like", "cs", "adj"]))
  #expect(operators("from walk_request select * where status ").contains("like"))
}
