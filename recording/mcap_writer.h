// An MCAP file writer (the format of mcap.dev's specification, major version 0): the magic, a
// Header, the data section (Schema, Channel and Message records inside Chunks compressed with
// zstd, a Message Index record per channel after each chunk, Metadata records, Data End), the
// summary section (Schema, Channel, Statistics, Chunk Index and Metadata Index records, grouped by
// opcode), a Summary Offset record per group, the Footer and the magic again. The file is built
// in memory, since a run's recording is small; Finish hands its bytes over whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace asg::recording {

/// MCAP record opcodes (the specification's "Records" section).
enum class McapOpcode : uint8_t {
  kHeader = 0x01,
  kFooter = 0x02,
  kSchema = 0x03,
  kChannel = 0x04,
  kMessage = 0x05,
  kChunk = 0x06,
  kMessageIndex = 0x07,
  kChunkIndex = 0x08,
  kStatistics = 0x0B,
  kMetadata = 0x0C,
  kMetadataIndex = 0x0D,
  kSummaryOffset = 0x0E,
  kDataEnd = 0x0F,
};

/// The eight bytes an MCAP file begins and ends with.
inline constexpr std::string_view kMcapMagic{"\x89MCAP0\r\n", 8};

/// How chunk records are compressed.
enum class McapCompression : uint8_t {
  kNone,  ///< stored as they are (compression "")
  kZstd,  ///< zstd (compression "zstd")
};

/// Key-value pairs of a Channel's or Metadata record's map, written in this order.
using McapKeyValues = std::vector<std::pair<std::string, std::string>>;

/// What a writer writes besides the records it is given.
struct McapWriterSettings {
  std::string profile;               ///< the Header's profile ("" : none of the well-known)
  std::string library = "asg-farm";  ///< the Header's library: the writer's name
  size_t chunk_size = 256 * 1024;    ///< [bytes] of uncompressed records that close a chunk
  McapCompression compression = McapCompression::kZstd;  ///< of every chunk
  int zstd_level = 3;                                    ///< zstd's compression level, 1..19
};

/// Builds one MCAP file in memory. Schemas and channels go into the open chunk when added (and
/// into the summary at the end), messages into the open chunk; a chunk is closed, compressed and
/// followed by its message indexes when it holds settings.chunk_size bytes and at Finish.
/// Messages of one channel must come in non-decreasing log time (ASG_CHECK). Not thread-safe.
class McapWriter {
 public:
  /// Starts a file: the magic and the Header record.
  explicit McapWriter(McapWriterSettings settings = {});

  /// Adds a schema (`encoding` e.g. "jsonschema", `data` its text); returns its id, 1, 2, ...
  uint16_t AddSchema(std::string name, std::string encoding, std::string data);
  /// Adds a channel on `topic` whose messages have the schema `schema_id` (0: none) and the
  /// encoding `message_encoding` (e.g. "json"); returns its id, 1, 2, ...
  uint16_t AddChannel(uint16_t schema_id, std::string topic, std::string message_encoding,
                      McapKeyValues metadata = {});
  /// Adds a message of channel `channel_id` logged and published at `log_time` [ns]; its
  /// sequence number is its index in the channel, 0, 1, ...
  void AddMessage(uint16_t channel_id, uint64_t log_time, std::string_view data);
  /// Adds a Metadata record (written in the data section after the last chunk).
  void AddMetadata(std::string name, McapKeyValues metadata);
  /// Closes the last chunk and writes the rest of the file; returns all of its bytes. Nothing
  /// may be added afterwards (ASG_CHECK).
  std::string Finish();

 private:
  struct Schema {
    uint16_t id = 0;
    std::string name, encoding, data;
  };
  struct Channel {
    uint16_t id = 0, schema_id = 0;
    std::string topic, message_encoding;
    McapKeyValues metadata;
    uint64_t message_count = 0;
    uint64_t last_log_time = 0;
  };
  struct ChunkIndex {
    uint64_t start_time = 0, end_time = 0, offset = 0, length = 0;
    std::map<uint16_t, uint64_t> message_index_offsets;  // channel id -> file offset
    uint64_t message_index_length = 0, compressed_size = 0, uncompressed_size = 0;
  };
  struct MetadataIndex {
    uint64_t offset = 0, length = 0;
    std::string name;
  };

  static std::string SchemaContent(const Schema& schema);
  static std::string ChannelContent(const Channel& channel);
  std::string ChunkIndexContent(const ChunkIndex& index) const;
  std::string StatisticsContent() const;
  void CloseChunk();
  void WriteDataEnd();
  void WriteSummary();

  McapWriterSettings settings_;
  std::string file_;   // the file so far
  std::string chunk_;  // the open chunk's uncompressed records
  std::map<uint16_t, std::vector<std::pair<uint64_t, uint64_t>>>
      chunk_messages_;  // id ->
                        // (log time, offset in chunk_)
  uint64_t chunk_start_time_ = 0, chunk_end_time_ = 0;
  bool chunk_has_messages_ = false;
  std::vector<Schema> schemas_;
  std::vector<Channel> channels_;
  std::vector<ChunkIndex> chunk_indexes_;
  std::vector<std::pair<std::string, McapKeyValues>> metadata_;
  std::vector<MetadataIndex> metadata_indexes_;
  std::vector<std::string> summary_offsets_;  // Summary Offset records' contents
  uint64_t message_count_ = 0, start_time_ = 0, end_time_ = 0;
  bool finished_ = false;
};

}  // namespace asg::recording
