// The harness of scripts/lexer-compare: built with the lexer's sources of one revision (SNMQuery's
// Lexer and Source folders, nothing else), it prints every token of each file named, the stream's
// end state, and the tokens again a statement at a time as the parser's window lexes them.
//
//     lexer-harness FILE...
import Foundation

@main struct LexerHarness {
  static func main() {
    var out = ""
    for file in CommandLine.arguments.dropFirst() {
      guard let data = FileManager.default.contents(atPath: file) else {
        FileHandle.standardError.write(Data("lexer-harness: cannot read \(file)\n".utf8))
        exit(2)
      }
      let stream = Lexer.tokenize(Source(text: String(decoding: data, as: UTF8.self)))
      out += "== \(file) \(stream.endsInsideBrackets) \(stream.endsWithContinuation)\n"
      for token in stream.tokens {
        let keyword = token.keyword.map { $0.rawValue } ?? "-"
        out += "\(token.kind) \(keyword) \(token.start) \(token.end) \(token.flags.rawValue)\n"
      }
      var lexer = Lexer(bytes: Array(data), reserving: false)
      while !lexer.isFinished {
        lexer.buffer.removeAll()
        lexer.lexStatement()
        out += "| \(lexer.buffer.count)"
        for index in 0..<lexer.buffer.count {
          let token = lexer.buffer[index]
          out += " \(token.kind.rawValue):\(token.start)-\(token.end)/\(token.flags.rawValue)"
        }
        out += "\n"
      }
      if out.utf8.count > 1 << 20 {
        print(out, terminator: "")
        out = ""
      }
    }
    print(out, terminator: "")
  }
}
