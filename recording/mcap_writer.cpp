// MCAP writer: records are built field by field in little-endian order, each framed as
// <opcode><uint64 content length><content>; offsets and CRCs (CRC-32, computed here) are those of
// the bytes in file_.
#include "recording/mcap_writer.h"

#include <libdeflate.h>
#include <zstd.h>

#include <algorithm>
#include <array>

#include "core/check.h"

namespace asg::recording {

namespace {

/// Appends `value` in little-endian byte order (the format's byte order for every integer).
template <typename T>
void PutInt(std::string& out, T value) {
  for (size_t i = 0; i < sizeof(T); ++i) {
    out.push_back(static_cast<char>((static_cast<uint64_t>(value) >> (8 * i)) & 0xFF));
  }
}

/// A String or uint32 length-prefixed Bytes field.
void PutString(std::string& out, std::string_view text) {
  PutInt<uint32_t>(out, static_cast<uint32_t>(text.size()));
  out.append(text);
}

/// A Map<string, string>: its byte length, then each key and value.
void PutStringMap(std::string& out, const McapKeyValues& map) {
  std::string entries;
  for (const auto& [key, value] : map) {
    PutString(entries, key);
    PutString(entries, value);
  }
  PutString(out, entries);
}

/// A Map<uint16, uint64>: its byte length, then each key and value.
void PutIdMap(std::string& out, const std::map<uint16_t, uint64_t>& map) {
  PutInt<uint32_t>(out, static_cast<uint32_t>(map.size() * 10));
  for (const auto& [key, value] : map) {
    PutInt<uint16_t>(out, key);
    PutInt<uint64_t>(out, value);
  }
}

/// Appends one record: opcode, content length, content.
void PutRecord(std::string& out, McapOpcode opcode, std::string_view content) {
  out.push_back(static_cast<char>(opcode));
  PutInt<uint64_t>(out, content.size());
  out.append(content);
}

/// The CRC-32 MCAP uses (zlib's and PNG's: reflected polynomial 0xEDB88320, initial and final
/// value 0xFFFFFFFF), by libdeflate.
uint32_t Crc32(std::string_view bytes) { return libdeflate_crc32(0, bytes.data(), bytes.size()); }

/// `records` compressed with zstd at `level`.
std::string ZstdCompress(std::string_view records, int level) {
  std::string compressed(ZSTD_compressBound(records.size()), '\0');
  const size_t size =
      ZSTD_compress(compressed.data(), compressed.size(), records.data(), records.size(), level);
  ASG_CHECK(!ZSTD_isError(size));
  compressed.resize(size);
  return compressed;
}

}  // namespace

McapWriter::McapWriter(McapWriterSettings settings) : settings_(std::move(settings)) {
  file_.append(kMcapMagic);
  std::string header;
  PutString(header, settings_.profile);
  PutString(header, settings_.library);
  PutRecord(file_, McapOpcode::kHeader, header);
}

uint16_t McapWriter::AddSchema(std::string name, std::string encoding, std::string data) {
  ASG_CHECK(!finished_ && schemas_.size() < 0xFFFF);
  Schema schema{static_cast<uint16_t>(schemas_.size() + 1), std::move(name), std::move(encoding),
                std::move(data)};
  PutRecord(chunk_, McapOpcode::kSchema, SchemaContent(schema));
  schemas_.push_back(std::move(schema));
  return schemas_.back().id;
}

uint16_t McapWriter::AddChannel(uint16_t schema_id, std::string topic, std::string message_encoding,
                                McapKeyValues metadata) {
  ASG_CHECK(!finished_ && schema_id <= schemas_.size() && channels_.size() < 0xFFFF);
  Channel channel;
  channel.id = static_cast<uint16_t>(channels_.size() + 1);
  channel.schema_id = schema_id;
  channel.topic = std::move(topic);
  channel.message_encoding = std::move(message_encoding);
  channel.metadata = std::move(metadata);
  PutRecord(chunk_, McapOpcode::kChannel, ChannelContent(channel));
  channels_.push_back(std::move(channel));
  return channels_.back().id;
}

void McapWriter::AddMessage(uint16_t channel_id, uint64_t log_time, std::string_view data) {
  ASG_CHECK(!finished_ && channel_id >= 1 && channel_id <= channels_.size());
  Channel& channel = channels_[channel_id - 1];
  ASG_CHECK(channel.message_count == 0 || log_time >= channel.last_log_time);
  chunk_messages_[channel_id].emplace_back(log_time, chunk_.size());
  chunk_.push_back(static_cast<char>(McapOpcode::kMessage));
  PutInt<uint64_t>(chunk_, 2 + 4 + 8 + 8 + data.size());
  PutInt<uint16_t>(chunk_, channel_id);
  PutInt<uint32_t>(chunk_, static_cast<uint32_t>(channel.message_count));
  PutInt<uint64_t>(chunk_, log_time);  // log time
  PutInt<uint64_t>(chunk_, log_time);  // publish time: the same
  chunk_.append(data);
  ++channel.message_count;
  channel.last_log_time = log_time;
  // The chunk's and the file's time span.
  chunk_start_time_ = chunk_has_messages_ ? std::min(chunk_start_time_, log_time) : log_time;
  chunk_end_time_ = chunk_has_messages_ ? std::max(chunk_end_time_, log_time) : log_time;
  start_time_ = message_count_ > 0 ? std::min(start_time_, log_time) : log_time;
  end_time_ = message_count_ > 0 ? std::max(end_time_, log_time) : log_time;
  chunk_has_messages_ = true;
  ++message_count_;
  if (chunk_.size() >= settings_.chunk_size) CloseChunk();
}

void McapWriter::AddMetadata(std::string name, McapKeyValues metadata) {
  ASG_CHECK(!finished_);
  metadata_.emplace_back(std::move(name), std::move(metadata));
}

void McapWriter::CloseChunk() {
  if (chunk_.empty()) return;
  const bool zstd = settings_.compression == McapCompression::kZstd;
  const std::string records = zstd ? ZstdCompress(chunk_, settings_.zstd_level) : chunk_;
  ChunkIndex index;
  index.start_time = chunk_has_messages_ ? chunk_start_time_ : 0;
  index.end_time = chunk_has_messages_ ? chunk_end_time_ : 0;
  index.offset = file_.size();
  index.compressed_size = records.size();
  index.uncompressed_size = chunk_.size();
  std::string content;
  PutInt<uint64_t>(content, index.start_time);
  PutInt<uint64_t>(content, index.end_time);
  PutInt<uint64_t>(content, chunk_.size());
  PutInt<uint32_t>(content, Crc32(chunk_));
  PutString(content, zstd ? "zstd" : "");
  PutInt<uint64_t>(content, records.size());
  content.append(records);
  PutRecord(file_, McapOpcode::kChunk, content);
  index.length = file_.size() - index.offset;
  // One Message Index record per channel with messages in the chunk, by channel id.
  for (const auto& [channel_id, entries] : chunk_messages_) {
    index.message_index_offsets[channel_id] = file_.size();
    std::string message_index;
    PutInt<uint16_t>(message_index, channel_id);
    PutInt<uint32_t>(message_index, static_cast<uint32_t>(entries.size() * 16));
    for (const auto& [log_time, offset] : entries) {
      PutInt<uint64_t>(message_index, log_time);
      PutInt<uint64_t>(message_index, offset);
    }
    PutRecord(file_, McapOpcode::kMessageIndex, message_index);
  }
  index.message_index_length = file_.size() - index.offset - index.length;
  chunk_indexes_.push_back(std::move(index));
  chunk_.clear();
  chunk_messages_.clear();
  chunk_has_messages_ = false;
}

void McapWriter::WriteDataEnd() {
  for (const auto& [name, metadata] : metadata_) {
    std::string content;
    PutString(content, name);
    PutStringMap(content, metadata);
    const uint64_t offset = file_.size();
    PutRecord(file_, McapOpcode::kMetadata, content);
    metadata_indexes_.push_back({offset, file_.size() - offset, name});
  }
  std::string data_end;
  PutInt<uint32_t>(data_end, Crc32(file_));
  PutRecord(file_, McapOpcode::kDataEnd, data_end);
}

std::string McapWriter::SchemaContent(const Schema& schema) {
  std::string content;
  PutInt<uint16_t>(content, schema.id);
  PutString(content, schema.name);
  PutString(content, schema.encoding);
  PutString(content, schema.data);
  return content;
}

std::string McapWriter::ChannelContent(const Channel& channel) {
  std::string content;
  PutInt<uint16_t>(content, channel.id);
  PutInt<uint16_t>(content, channel.schema_id);
  PutString(content, channel.topic);
  PutString(content, channel.message_encoding);
  PutStringMap(content, channel.metadata);
  return content;
}

std::string McapWriter::ChunkIndexContent(const ChunkIndex& index) const {
  std::string content;
  PutInt<uint64_t>(content, index.start_time);
  PutInt<uint64_t>(content, index.end_time);
  PutInt<uint64_t>(content, index.offset);
  PutInt<uint64_t>(content, index.length);
  PutIdMap(content, index.message_index_offsets);
  PutInt<uint64_t>(content, index.message_index_length);
  PutString(content, settings_.compression == McapCompression::kZstd ? "zstd" : "");
  PutInt<uint64_t>(content, index.compressed_size);
  PutInt<uint64_t>(content, index.uncompressed_size);
  return content;
}

std::string McapWriter::StatisticsContent() const {
  std::string content;
  PutInt<uint64_t>(content, message_count_);
  PutInt<uint16_t>(content, static_cast<uint16_t>(schemas_.size()));
  PutInt<uint32_t>(content, static_cast<uint32_t>(channels_.size()));
  PutInt<uint32_t>(content, 0);  // attachments
  PutInt<uint32_t>(content, static_cast<uint32_t>(metadata_.size()));
  PutInt<uint32_t>(content, static_cast<uint32_t>(chunk_indexes_.size()));
  PutInt<uint64_t>(content, message_count_ > 0 ? start_time_ : 0);
  PutInt<uint64_t>(content, message_count_ > 0 ? end_time_ : 0);
  std::map<uint16_t, uint64_t> counts;
  for (const Channel& channel : channels_) counts[channel.id] = channel.message_count;
  PutIdMap(content, counts);
  return content;
}

void McapWriter::WriteSummary() {
  // Each group of records of one opcode, and its start and length for a Summary Offset record.
  auto group = [&](McapOpcode opcode, const std::vector<std::string>& contents) {
    if (contents.empty()) return;
    const uint64_t start = file_.size();
    for (const std::string& content : contents) PutRecord(file_, opcode, content);
    std::string offset;
    PutInt<uint8_t>(offset, static_cast<uint8_t>(opcode));
    PutInt<uint64_t>(offset, start);
    PutInt<uint64_t>(offset, file_.size() - start);
    summary_offsets_.push_back(std::move(offset));
  };
  std::vector<std::string> contents;
  for (const Schema& schema : schemas_) contents.push_back(SchemaContent(schema));
  group(McapOpcode::kSchema, contents);
  contents.clear();
  for (const Channel& channel : channels_) contents.push_back(ChannelContent(channel));
  group(McapOpcode::kChannel, contents);
  group(McapOpcode::kStatistics, {StatisticsContent()});
  contents.clear();
  for (const ChunkIndex& index : chunk_indexes_) contents.push_back(ChunkIndexContent(index));
  group(McapOpcode::kChunkIndex, contents);
  contents.clear();
  for (const MetadataIndex& index : metadata_indexes_) {
    std::string& content = contents.emplace_back();
    PutInt<uint64_t>(content, index.offset);
    PutInt<uint64_t>(content, index.length);
    PutString(content, index.name);
  }
  group(McapOpcode::kMetadataIndex, contents);
}

std::string McapWriter::Finish() {
  ASG_CHECK(!finished_);
  CloseChunk();
  WriteDataEnd();
  const uint64_t summary_start = file_.size();
  WriteSummary();
  const uint64_t summary_offset_start = file_.size();
  for (const std::string& content : summary_offsets_) {
    PutRecord(file_, McapOpcode::kSummaryOffset, content);
  }
  // The footer: its CRC covers the summary, the summary offsets and the footer up to itself.
  std::string footer;
  footer.push_back(static_cast<char>(McapOpcode::kFooter));
  PutInt<uint64_t>(footer, 8 + 8 + 4);
  PutInt<uint64_t>(footer, summary_start);
  PutInt<uint64_t>(footer, summary_offset_start);
  file_.append(footer);
  PutInt<uint32_t>(file_, Crc32(std::string_view(file_).substr(summary_start)));
  file_.append(kMcapMagic);
  finished_ = true;
  return std::move(file_);
}

}  // namespace asg::recording
