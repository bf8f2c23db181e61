import CatalogueKit

/// One printed field of a record: its JSON/CSV key, its table header, its value and its text,
/// as the entity's descriptor (``FieldDescriptor``) says.
struct RecordField {
    let key: String
    let header: String
    let value: DatabaseValue
    /// Table text for the value ("599.00" for prices, "49,648,685" for populations), control
    /// characters escaped.
    let display: String
    /// Numbers align right in tables.
    let isNumeric: Bool

    /// Field `field` of `record`.
    init<R>(_ field: FieldDescriptor<R>, of record: R) {
        key = field.name
        header = field.label
        value = field.value(record)
        display = TerminalText.escaped(field.format.text(value))
        isNumeric = field.isNumeric
    }
}

extension CatalogueRecord {
    /// The fields `catalogue search` and `browse` print: the entity's list fields.
    var listFields: [RecordField] {
        Self.entity.listFields.map { RecordField($0, of: self) }
    }
}

extension CatalogueEntity {
    /// What identifies one of its records to people (its descriptor's lookup).
    var lookup: RecordLookup { Self.lookup(of: recordType) }
    /// "country", "product".
    var singular: String { Self.singular(of: recordType) }

    private static func lookup<R: CatalogueRecord>(of type: R.Type) -> RecordLookup { R.entity.lookup }
    private static func singular<R: CatalogueRecord>(of type: R.Type) -> String { R.entity.singular }
}
