/// Collects a model's custom mapping while its field table is built. Issue-tracked forms (`<--`, `specify`,
/// `exclude`, transforms) are added to this type; the field table reads it once per type.
public final class HelpingMapper {
    init() {}
}
