// Tests for recording/mcap_writer.h.
#include "recording/mcap_writer.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <cstring>
#include <string>
#include <vector>

namespace asg::recording {
namespace {

/// A little-endian integer at `offset` of `bytes`.
template <typename T>
T Read(std::string_view bytes, size_t offset) {
  uint64_t value = 0;
  for (size_t i = 0; i < sizeof(T); ++i) {
    value |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[offset + i])) << (8 * i);
  }
  return static_cast<T>(value);
}

/// One record as it lies in a file: where it starts, its opcode and content.
struct Record {
  size_t offset = 0;
  uint8_t opcode = 0;
  std::string_view content;
};

/// The records of `bytes` from `begin` to `end`.
std::vector<Record> Records(std::string_view bytes, size_t begin, size_t end) {
  std::vector<Record> records;
  for (size_t at = begin; at < end;) {
    const uint64_t length = Read<uint64_t>(bytes, at + 1);
    records.push_back({at, static_cast<uint8_t>(bytes[at]), bytes.substr(at + 9, length)});
    at += 9 + length;
  }
  return records;
}

/// CRC-32 computed bit by bit (the reflected polynomial 0xEDB88320), independently of the writer's
/// table.
uint32_t Crc(std::string_view bytes) {
  uint32_t crc = 0xFFFFFFFFu;
  for (const char byte : bytes) {
    crc ^= static_cast<uint8_t>(byte);
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

TEST(McapCrcTest, ReferenceCrcOfTheCheckString) { EXPECT_EQ(Crc("123456789"), 0xCBF43926u); }

std::string TwoChannelFile(McapCompression compression, size_t chunk_size) {
  McapWriterSettings settings;
  settings.compression = compression;
  settings.chunk_size = chunk_size;
  McapWriter writer(settings);
  const uint16_t schema = writer.AddSchema("demo.Value", "jsonschema", R"({"type":"object"})");
  EXPECT_EQ(schema, 1);
  const uint16_t a = writer.AddChannel(schema, "/a", "json");
  const uint16_t b = writer.AddChannel(schema, "/b", "json", {{"unit", "m"}});
  EXPECT_EQ(b, 2);
  for (uint64_t t = 0; t < 10; ++t) writer.AddMessage(a, 100 + t, R"({"v":1})");
  writer.AddMessage(b, 105, R"({"v":2})");
  writer.AddMetadata("scenario", {{"seed", "7"}});
  return writer.Finish();
}

TEST(McapWriterTest, FileIsFramedByMagicWithHeaderFirstAndFooterLast) {
  const std::string file = TwoChannelFile(McapCompression::kNone, 1 << 20);
  ASSERT_GT(file.size(), 2 * kMcapMagic.size() + 29);
  EXPECT_EQ(file.substr(0, 8), kMcapMagic);
  EXPECT_EQ(file.substr(file.size() - 8), kMcapMagic);
  const std::vector<Record> head = Records(file, 8, 8 + 9 + Read<uint64_t>(file, 9));
  ASSERT_EQ(head.size(), 1u);
  EXPECT_EQ(head[0].opcode, 0x01);
  // Header: profile "" and library "asg-farm".
  EXPECT_EQ(Read<uint32_t>(head[0].content, 0), 0u);
  EXPECT_EQ(head[0].content.substr(8), "asg-farm");
  const size_t footer = file.size() - 8 - 29;
  EXPECT_EQ(file[footer], 0x02);
  EXPECT_EQ(Read<uint64_t>(file, footer + 1), 20u);
}

TEST(McapWriterTest, DataSectionHoldsChunkMessageIndexesMetadataAndDataEnd) {
  const std::string file = TwoChannelFile(McapCompression::kNone, 1 << 20);
  const size_t footer = file.size() - 8 - 29;
  const uint64_t summary_start = Read<uint64_t>(file, footer + 9);
  const std::vector<Record> data = Records(file, 8, summary_start);
  std::vector<int> opcodes;
  for (const Record& record : data) opcodes.push_back(record.opcode);
  EXPECT_EQ(opcodes, (std::vector<int>{0x01, 0x06, 0x07, 0x07, 0x0C, 0x0F}));
  // The chunk: start and end time, sizes, its CRC, no compression, then Schema, Channel x2 and
  // eleven Message records.
  const std::string_view chunk = data[1].content;
  EXPECT_EQ(Read<uint64_t>(chunk, 0), 100u);
  EXPECT_EQ(Read<uint64_t>(chunk, 8), 109u);
  const uint64_t size = Read<uint64_t>(chunk, 16);
  EXPECT_EQ(Read<uint32_t>(chunk, 28), 0u);  // compression ""
  ASSERT_EQ(Read<uint64_t>(chunk, 32), size);
  const std::string_view records = chunk.substr(40, size);
  EXPECT_EQ(Read<uint32_t>(chunk, 24), Crc(records));
  const std::vector<Record> inner = Records(records, 0, records.size());
  ASSERT_EQ(inner.size(), 14u);
  EXPECT_EQ(inner[0].opcode, 0x03);
  EXPECT_EQ(inner[2].opcode, 0x04);
  EXPECT_EQ(inner[13].opcode, 0x05);
  // Message index of channel 2: one entry (log time 105) pointing at its Message record.
  const std::string_view index = data[3].content;
  EXPECT_EQ(Read<uint16_t>(index, 0), 2);
  ASSERT_EQ(Read<uint32_t>(index, 2), 16u);
  EXPECT_EQ(Read<uint64_t>(index, 6), 105u);
  const size_t message = Read<uint64_t>(index, 14);
  EXPECT_EQ(records[message], 0x05);
  EXPECT_EQ(Read<uint16_t>(records, message + 9), 2);
  // DataEnd's CRC covers every byte before it.
  EXPECT_EQ(Read<uint32_t>(data[5].content, 0),
            Crc(std::string_view(file).substr(0, data[5].offset)));
}

TEST(McapWriterTest, SummaryHasGroupsOffsetsStatisticsAndCrc) {
  const std::string file = TwoChannelFile(McapCompression::kNone, 1 << 20);
  const size_t footer = file.size() - 8 - 29;
  const uint64_t summary_start = Read<uint64_t>(file, footer + 9);
  const uint64_t offsets_start = Read<uint64_t>(file, footer + 17);
  EXPECT_EQ(Read<uint32_t>(file, footer + 25),
            Crc(std::string_view(file).substr(summary_start, footer + 25 - summary_start)));
  const std::vector<Record> summary = Records(file, summary_start, offsets_start);
  std::vector<int> opcodes;
  for (const Record& record : summary) opcodes.push_back(record.opcode);
  EXPECT_EQ(opcodes, (std::vector<int>{0x03, 0x04, 0x04, 0x0B, 0x08, 0x0D}));
  const std::string_view statistics = summary[3].content;
  EXPECT_EQ(Read<uint64_t>(statistics, 0), 11u);  // messages
  EXPECT_EQ(Read<uint16_t>(statistics, 8), 1);    // schemas
  EXPECT_EQ(Read<uint32_t>(statistics, 10), 2u);  // channels
  EXPECT_EQ(Read<uint32_t>(statistics, 18), 1u);  // metadata
  EXPECT_EQ(Read<uint32_t>(statistics, 22), 1u);  // chunks
  EXPECT_EQ(Read<uint64_t>(statistics, 26), 100u);
  EXPECT_EQ(Read<uint64_t>(statistics, 34), 109u);
  ASSERT_EQ(Read<uint32_t>(statistics, 42), 20u);  // two (channel, count) entries
  EXPECT_EQ(Read<uint64_t>(statistics, 48), 10u);
  EXPECT_EQ(Read<uint64_t>(statistics, 58), 1u);
  // The chunk index points at the chunk record and its message indexes.
  const std::string_view chunk_index = summary[4].content;
  const uint64_t chunk_offset = Read<uint64_t>(chunk_index, 16);
  EXPECT_EQ(file[chunk_offset], 0x06);
  EXPECT_EQ(file[chunk_offset + Read<uint64_t>(chunk_index, 24)], 0x07);
  const std::vector<Record> offsets = Records(file, offsets_start, footer);
  ASSERT_EQ(offsets.size(), 5u);  // one per group
  EXPECT_EQ(offsets[2].content[0], 0x0B);
  EXPECT_EQ(Read<uint64_t>(offsets[2].content, 1), summary[3].offset);
  EXPECT_EQ(Read<uint64_t>(offsets[1].content, 9), summary[3].offset - summary[1].offset);
}

TEST(McapWriterTest, ZstdChunksDecompressToTheirCrcAndSmallChunksSplit) {
  const std::string file = TwoChannelFile(McapCompression::kZstd, 200);
  const size_t footer = file.size() - 8 - 29;
  const std::vector<Record> data = Records(file, 8, Read<uint64_t>(file, footer + 9));
  size_t chunks = 0;
  for (const Record& record : data) {
    if (record.opcode != 0x06) continue;
    ++chunks;
    const std::string_view chunk = record.content;
    const uint64_t size = Read<uint64_t>(chunk, 16);
    ASSERT_EQ(chunk.substr(32, 4), "zstd");
    const uint64_t compressed_size = Read<uint64_t>(chunk, 36);
    std::string records(size, '\0');
    ASSERT_EQ(ZSTD_decompress(records.data(), size, chunk.data() + 44, compressed_size), size);
    EXPECT_EQ(Read<uint32_t>(chunk, 24), Crc(records));
  }
  EXPECT_GT(chunks, 1u);
}

}  // namespace
}  // namespace asg::recording
