extension RealtimeStatement {
  var canonicalText: String {
    switch self {
    case .listen(let listen): listen.canonicalText
    case .unlisten(let name): "unlisten " + (name?.topicText ?? "all")
    case .broadcast(let topic, let event, let payload):
      "broadcast \(topic.topicText) \(event.topicText) \(payload.value.canonicalText)"
    case .track(let topic, let payload): "track \(topic.topicText) \(payload.value.canonicalText)"
    case .untrack(let topic): "untrack " + topic.topicText
    case .expectEvent(let expectation): expectation.canonicalText
    case .check(.table(let table)): "realtime check " + table.canonicalText
    case .check(.channel(let topic, let isPrivate)):
      "realtime check channel " + topic.topicText + (isPrivate ? " private" : "")
    }
  }
}

extension RealtimeListen {
  var canonicalText: String {
    switch target {
    case .channel(let topic, let isPrivate):
      return "listen channel " + topic.topicText + (isPrivate ? " private" : "")
    case .table(let table, let change):
      var text = "listen " + table.canonicalText + " " + change.word
      if let filter { text += " where " + filter.canonicalText(nested: false) }
      return text
    }
  }
}

extension RealtimeExpectation {
  var canonicalText: String {
    var text = negated ? "expect no event" : "expect event"
    if let subscription { text += " " + subscription.topicText }
    if let kind { text += " " + kind.topicText }
    if let filter { text += " where " + filter.canonicalText(nested: false) }
    if let within { text += " within " + within.text }
    return text
  }
}

extension Name {
  /// A topic or event name as `RealtimeStatementParser.parseTopic` reads it back: bare when it is all topic characters.
  var topicText: String {
    !quoted && RealtimeStatementParser.isTopicText(text) ? text : Value.quoted(text)
  }
}
