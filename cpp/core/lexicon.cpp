#include "lexicon.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "rng.hpp"

namespace attn {

namespace {

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// FNV-1a of the bytes (as rng.hpp's fnv1a64), with ASCII letters lowercased when `fold`.
std::uint64_t hash_of(std::string_view word, bool fold) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (char c : word) {
    h ^= static_cast<unsigned char>(fold ? ascii_lower(c) : c);
    h *= 0x100000001B3ull;
  }
  return h;
}

bool same(std::string_view a, std::string_view b, bool fold) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i] && (!fold || ascii_lower(a[i]) != ascii_lower(b[i]))) return false;
  }
  return true;
}

using Features = std::array<double, 8>;  // (8) animal … size, the order of builtin features

// One row of the built-in table: an English word, its vector, and the Chinese words that mean
// the same (space-separated), which therefore share the vector. Either word column may be empty.
struct Entry {
  const char* english;
  Features vector;
  const char* chinese;
};

// Function words ("the", "of", 的) say nothing about these features. They still get a small,
// equal weight on every feature rather than zeros: cosine similarity divides by a vector's
// length, and a zero vector would make the "cosine" view fail on an ordinary sentence.
constexpr Features kFunctionWord = {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1};
// Prepositions that locate something ("on", "under", 在) lean a little towards place.
constexpr Features kPlaceWord = {0, 0, 0, 0, 0, 0.3, 0, 0};

// The built-in words. Values are set by hand so that a reader can check them: bird flies and is
// small, mountain is a huge place, apple is food from a plant. Size runs from −1 (an ant) through
// 0 (a person, or not about size) to 1 (a mountain, the sky).
// clang-format off
constexpr Entry kEntries[] = {
    // English     animal  plant   food   tech person  place    fly   size    Chinese
    // Animals: animal 1; can_fly for the ones that do; size from ant (−1) to whale (1).
    {"bird",       {    1,     0,     0,     0,     0,     0,     1,  -0.5}, "鸟 小鸟"},
    {"birds",      {    1,     0,     0,     0,     0,     0,     1,  -0.5}, "鸟儿"},
    {"cat",        {    1,     0,     0,     0,     0,     0,     0,  -0.4}, "猫 小猫"},
    {"dog",        {    1,     0,     0,     0,     0,     0,     0,  -0.2}, "狗 小狗"},
    {"fish",       {    1,     0,   0.5,     0,     0,     0,     0,  -0.5}, "鱼"},
    {"horse",      {    1,     0,     0,     0,     0,     0,     0,   0.5}, "马"},
    {"cow",        {    1,     0,   0.3,     0,     0,     0,     0,   0.6}, "牛"},
    {"pig",        {    1,     0,   0.3,     0,     0,     0,     0,   0.3}, "猪"},
    {"sheep",      {    1,     0,   0.2,     0,     0,     0,     0,   0.2}, "羊"},
    {"rabbit",     {    1,     0,     0,     0,     0,     0,     0,  -0.5}, "兔子"},
    {"tiger",      {    1,     0,     0,     0,     0,     0,     0,   0.5}, "老虎"},
    {"lion",       {    1,     0,     0,     0,     0,     0,     0,   0.5}, "狮子"},
    {"elephant",   {    1,     0,     0,     0,     0,     0,     0,   0.9}, "大象"},
    {"whale",      {    1,     0,     0,     0,     0,     0,     0,     1}, "鲸鱼"},
    {"mouse",      {    1,     0,     0,     0,     0,     0,     0,  -0.8}, "老鼠"},
    {"monkey",     {    1,     0,     0,     0,   0.2,     0,     0,     0}, "猴子"},
    {"bear",       {    1,     0,     0,     0,     0,     0,     0,   0.6}, "熊"},
    {"panda",      {    1,     0,     0,     0,     0,     0,     0,   0.5}, "熊猫"},
    {"snake",      {    1,     0,     0,     0,     0,     0,     0,  -0.3}, "蛇"},
    {"duck",       {    1,     0,   0.4,     0,     0,     0,   0.6,  -0.4}, "鸭子"},
    {"chicken",    {    1,     0,   0.6,     0,     0,     0,   0.2,  -0.4}, "鸡"},
    {"eagle",      {    1,     0,     0,     0,     0,     0,     1,     0}, "鹰 老鹰"},
    {"owl",        {    1,     0,     0,     0,     0,     0,     1,  -0.4}, "猫头鹰"},
    {"penguin",    {    1,     0,     0,     0,     0,     0,    -1,  -0.3}, "企鹅"},
    {"butterfly",  {    1,     0,     0,     0,     0,     0,     1,  -0.9}, "蝴蝶"},
    {"bee",        {    1,     0,     0,     0,     0,     0,     1,    -1}, "蜜蜂"},
    {"ant",        {    1,     0,     0,     0,     0,     0,     0,    -1}, "蚂蚁"},
    {"mosquito",   {    1,     0,     0,     0,     0,     0,     1,    -1}, "蚊子"},
    {"bat",        {    1,     0,     0,     0,     0,     0,     1,  -0.6}, "蝙蝠"},
    {"dragon",     {    1,     0,     0,     0,     0,     0,     1,     1}, "龙"},
    {"frog",       {    1,     0,     0,     0,     0,     0,     0,  -0.7}, "青蛙"},
    {"wolf",       {    1,     0,     0,     0,     0,     0,     0,   0.2}, "狼"},
    {"giraffe",    {    1,     0,     0,     0,     0,     0,     0,   0.8}, "长颈鹿"},
    {"animal",     {    1,     0,     0,     0,     0,     0,     0,     0}, "动物"},
    {"wing",       {  0.5,     0,     0,     0,     0,     0,     1,  -0.5}, "翅膀"},
    {"feather",    {  0.5,     0,     0,     0,     0,     0,   0.5,  -0.9}, "羽毛"},
    {"nest",       {  0.5,   0.3,     0,     0,     0,   0.5,     0,  -0.6}, "鸟巢"},
    // Plants.
    {"flower",     {    0,     1,     0,     0,     0,     0,     0,  -0.7}, "花 花朵 鲜花"},
    {"flowers",    {    0,     1,     0,     0,     0,     0,     0,  -0.7}, "花儿"},
    {"tree",       {    0,     1,     0,     0,     0,     0,     0,   0.7}, "树 大树"},
    {"grass",      {    0,     1,     0,     0,     0,     0,     0,  -0.8}, "草"},
    {"rose",       {    0,     1,     0,     0,     0,     0,     0,  -0.7}, "玫瑰"},
    {"leaf",       {    0,     1,     0,     0,     0,     0,     0,  -0.9}, "叶子"},
    {"forest",     {    0,     1,     0,     0,     0,     1,     0,     1}, "森林"},
    {"bamboo",     {    0,     1,   0.2,     0,     0,     0,     0,   0.4}, "竹子"},
    {"seed",       {    0,     1,   0.3,     0,     0,     0,     0,    -1}, "种子"},
    {"lotus",      {    0,     1,     0,     0,     0,     0,     0,  -0.5}, "荷花"},
    {"plant",      {    0,     1,     0,     0,     0,     0,     0,     0}, "植物"},
    {"garden",     {    0,   0.8,     0,     0,     0,     1,     0,   0.5}, "花园"},
    // Food: fruit is food that grows on a plant.
    {"apple",      {    0,   0.5,     1,     0,     0,     0,     0,  -0.6}, "苹果"},
    {"apples",     {    0,   0.5,     1,     0,     0,     0,     0,  -0.6}, ""},
    {"orange",     {    0,   0.5,     1,     0,     0,     0,     0,  -0.5}, "橘子 橙子"},
    {"oranges",    {    0,   0.5,     1,     0,     0,     0,     0,  -0.5}, ""},
    {"banana",     {    0,   0.5,     1,     0,     0,     0,     0,  -0.5}, "香蕉"},
    {"grape",      {    0,   0.5,     1,     0,     0,     0,     0,  -0.9}, "葡萄"},
    {"pear",       {    0,   0.5,     1,     0,     0,     0,     0,  -0.6}, "梨"},
    {"peach",      {    0,   0.5,     1,     0,     0,     0,     0,  -0.6}, "桃子"},
    {"watermelon", {    0,   0.5,     1,     0,     0,     0,     0,  -0.2}, "西瓜"},
    {"strawberry", {    0,   0.5,     1,     0,     0,     0,     0,  -0.9}, "草莓"},
    {"fruit",      {    0,   0.5,     1,     0,     0,     0,     0,  -0.6}, "水果"},
    {"rice",       {    0,   0.3,     1,     0,     0,     0,     0,  -0.5}, "米饭 大米"},
    {"bread",      {    0,     0,     1,     0,     0,     0,     0,  -0.5}, "面包"},
    {"noodles",    {    0,     0,     1,     0,     0,     0,     0,  -0.5}, "面条"},
    {"cake",       {    0,     0,     1,     0,     0,     0,     0,  -0.4}, "蛋糕"},
    {"egg",        {  0.3,     0,     1,     0,     0,     0,     0,  -0.8}, "鸡蛋"},
    {"milk",       {  0.2,     0,     1,     0,     0,     0,     0,  -0.5}, "牛奶"},
    {"tea",        {    0,   0.4,     1,     0,     0,     0,     0,  -0.6}, "茶"},
    {"coffee",     {    0,   0.3,     1,     0,     0,     0,     0,  -0.6}, "咖啡"},
    {"water",      {    0,     0,   0.8,     0,     0,     0,     0,     0}, "水"},
    {"meat",       {  0.5,     0,     1,     0,     0,     0,     0,  -0.5}, "肉"},
    {"vegetable",  {    0,   0.8,     1,     0,     0,     0,     0,  -0.6}, "蔬菜"},
    {"tomato",     {    0,   0.6,     1,     0,     0,     0,     0,  -0.7}, "西红柿 番茄"},
    {"potato",     {    0,   0.6,     1,     0,     0,     0,     0,  -0.7}, "土豆"},
    {"carrot",     {    0,   0.6,     1,     0,     0,     0,     0,  -0.7}, "胡萝卜"},
    {"soup",       {    0,     0,     1,     0,     0,     0,     0,  -0.5}, "汤"},
    {"dumplings",  {    0,     0,     1,     0,     0,     0,     0,  -0.8}, "饺子"},
    {"honey",      {  0.3,   0.2,     1,     0,     0,     0,     0,  -0.8}, "蜂蜜"},
    {"sugar",      {    0,   0.2,     1,     0,     0,     0,     0,    -1}, "糖"},
    {"food",       {    0,     0,     1,     0,     0,     0,     0,     0}, "食物"},
    // Technology, and the things that fly without being animals.
    {"iPhone",     {    0,     0,     0,     1,     0,     0,     0,  -0.6}, ""},
    {"phone",      {    0,     0,     0,     1,     0,     0,     0,  -0.6}, "手机 电话"},
    {"computer",   {    0,     0,     0,     1,     0,     0,     0,  -0.3}, "电脑 计算机"},
    {"robot",      {    0,     0,     0,     1,   0.5,     0,     0,     0}, "机器人"},
    {"car",        {    0,     0,     0,     1,     0,     0,     0,   0.5}, "汽车 车"},
    {"airplane",   {    0,     0,     0,     1,     0,     0,     1,   0.8}, "飞机"},
    {"plane",      {    0,     0,     0,     1,     0,     0,     1,   0.8}, ""},
    {"rocket",     {    0,     0,     0,     1,     0,     0,     1,   0.8}, "火箭"},
    {"drone",      {    0,     0,     0,     1,     0,     0,     1,  -0.5}, "无人机"},
    {"satellite",  {    0,     0,     0,     1,     0,     0,     1,   0.5}, "卫星"},
    {"internet",   {    0,     0,     0,     1,     0,   0.3,     0,   0.5}, "互联网 网络"},
    {"camera",     {    0,     0,     0,     1,     0,     0,     0,  -0.6}, "相机"},
    {"television", {    0,     0,     0,     1,     0,     0,     0,     0}, "电视"},
    {"bicycle",    {    0,     0,     0,   0.6,     0,     0,     0,   0.2}, "自行车"},
    {"train",      {    0,     0,     0,     1,     0,     0,     0,   0.8}, "火车"},
    {"ship",       {    0,     0,     0,   0.8,     0,     0,     0,   0.8}, "船"},
    {"software",   {    0,     0,     0,     1,     0,     0,     0,     0}, "软件"},
    {"chip",       {    0,     0,     0,     1,     0,     0,     0,    -1}, "芯片"},
    {"battery",    {    0,     0,     0,     1,     0,     0,     0,  -0.8}, "电池"},
    {"screen",     {    0,     0,     0,     1,     0,     0,     0,  -0.3}, "屏幕"},
    {"AI",         {    0,     0,     0,     1,   0.3,     0,     0,     0}, "人工智能"},
    {"app",        {    0,     0,     0,     1,     0,     0,     0,  -0.5}, "应用"},
    {"machine",    {    0,     0,     0,     1,     0,     0,     0,   0.3}, "机器"},
    {"technology", {    0,     0,     0,     1,     0,     0,     0,     0}, "科技 技术"},
    {"kite",       {    0,     0,     0,   0.2,     0,     0,     1,  -0.4}, "风筝"},
    {"balloon",    {    0,     0,     0,     0,     0,     0,   0.8,  -0.5}, "气球"},
    // People, and the pronouns that stand for them.
    {"person",     {    0,     0,     0,     0,     1,     0,     0,     0}, "人"},
    {"people",     {    0,     0,     0,     0,     1,     0,     0,   0.2}, "人们"},
    {"man",        {    0,     0,     0,     0,     1,     0,     0,     0}, "男人"},
    {"woman",      {    0,     0,     0,     0,     1,     0,     0,     0}, "女人"},
    {"child",      {    0,     0,     0,     0,     1,     0,     0,  -0.4}, "孩子 小孩"},
    {"baby",       {    0,     0,     0,     0,     1,     0,     0,  -0.7}, "婴儿 宝宝"},
    {"girl",       {    0,     0,     0,     0,     1,     0,     0,  -0.2}, "女孩"},
    {"boy",        {    0,     0,     0,     0,     1,     0,     0,  -0.2}, "男孩"},
    {"teacher",    {    0,     0,     0,     0,     1,     0,     0,     0}, "老师"},
    {"student",    {    0,     0,     0,     0,     1,     0,     0,     0}, "学生"},
    {"doctor",     {    0,     0,     0,   0.3,     1,     0,     0,     0}, "医生"},
    {"farmer",     {    0,   0.4,   0.3,     0,     1,     0,     0,     0}, "农民"},
    {"pilot",      {    0,     0,     0,   0.5,     1,     0,   0.7,     0}, "飞行员"},
    {"astronaut",  {    0,     0,     0,   0.7,     1,     0,   0.8,     0}, "宇航员"},
    {"engineer",   {    0,     0,     0,   0.8,     1,     0,     0,     0}, "工程师"},
    {"chef",       {    0,     0,   0.7,     0,     1,     0,     0,     0}, "厨师"},
    {"painter",    {    0,     0,     0,     0,     1,     0,     0,     0}, "画家"},
    {"king",       {    0,     0,     0,     0,     1,   0.2,     0,     0}, "国王"},
    {"friend",     {    0,     0,     0,     0,     1,     0,     0,     0}, "朋友"},
    {"mother",     {    0,     0,     0,     0,     1,     0,     0,     0}, "妈妈 母亲"},
    {"father",     {    0,     0,     0,     0,     1,     0,     0,     0}, "爸爸 父亲"},
    {"I",          {    0,     0,     0,     0,     1,     0,     0,     0}, "我"},
    {"you",        {    0,     0,     0,     0,     1,     0,     0,     0}, "你"},
    {"he",         {    0,     0,     0,     0,     1,     0,     0,     0}, "他"},
    {"she",        {    0,     0,     0,     0,     1,     0,     0,     0}, "她"},
    {"we",         {    0,     0,     0,     0,     1,     0,     0,   0.2}, "我们"},
    {"they",       {    0,     0,     0,     0,     1,     0,     0,   0.2}, "他们"},
    {"my",         {    0,     0,     0,     0,   0.8,     0,     0,     0}, "我的"},
    {"it",         {  0.5,     0,     0,     0,     0,     0,     0,     0}, "它"},
    // Places: place 1; size from a room (0) to the world (1).
    {"mountain",   {    0,     0,     0,     0,     0,     1,     0,     1}, "山 高山 大山"},
    {"mountains",  {    0,     0,     0,     0,     0,     1,     0,     1}, ""},
    {"river",      {    0,     0,     0,     0,     0,     1,     0,   0.8}, "河 河流"},
    {"sea",        {    0,     0,     0,     0,     0,     1,     0,     1}, "海 大海"},
    {"lake",       {    0,     0,     0,     0,     0,     1,     0,   0.7}, "湖"},
    {"city",       {    0,     0,     0,   0.3,   0.3,     1,     0,   0.9}, "城市"},
    {"village",    {    0,     0,     0,     0,   0.3,     1,     0,   0.5}, "村庄"},
    {"home",       {    0,     0,     0,     0,   0.4,     1,     0,   0.2}, "家"},
    {"house",      {    0,     0,     0,     0,   0.2,     1,     0,   0.4}, "房子"},
    {"school",     {    0,     0,     0,     0,   0.4,     1,     0,   0.5}, "学校"},
    {"park",       {    0,   0.5,     0,     0,     0,     1,     0,   0.6}, "公园"},
    {"sky",        {    0,     0,     0,     0,     0,     1,   0.5,     1}, "天空 天"},
    {"island",     {    0,     0,     0,     0,     0,     1,     0,   0.6}, "岛"},
    {"desert",     {    0,     0,     0,     0,     0,     1,     0,     1}, "沙漠"},
    {"beach",      {    0,     0,     0,     0,     0,     1,     0,   0.6}, "海滩"},
    {"road",       {    0,     0,     0,   0.2,     0,     1,     0,   0.3}, "路"},
    {"bridge",     {    0,     0,     0,   0.4,     0,   0.8,     0,   0.6}, "桥"},
    {"kitchen",    {    0,     0,   0.6,     0,     0,     1,     0,     0}, "厨房"},
    {"market",     {    0,     0,   0.5,     0,   0.3,     1,     0,   0.3}, "市场"},
    {"farm",       {  0.4,   0.5,   0.5,     0,     0,     1,     0,   0.6}, "农场"},
    {"zoo",        {  0.8,     0,     0,     0,     0,     1,     0,   0.6}, "动物园"},
    {"airport",    {    0,     0,     0,   0.6,     0,     1,   0.8,   0.8}, "机场"},
    {"restaurant", {    0,     0,   0.8,     0,     0,     1,     0,   0.2}, "餐厅 饭店"},
    {"room",       {    0,     0,     0,     0,     0,     1,     0,     0}, "房间"},
    {"China",      {    0,     0,     0,     0,     0,     1,     0,     1}, "中国"},
    {"Beijing",    {    0,     0,     0,     0,     0,     1,     0,   0.9}, "北京"},
    {"world",      {    0,     0,     0,     0,     0,     1,     0,     1}, "世界"},
    {"earth",      {    0,     0,     0,     0,     0,     1,     0,     1}, "地球"},
    {"moon",       {    0,     0,     0,     0,     0,   0.6,     0,     1}, "月亮"},
    {"sun",        {    0,     0,     0,     0,     0,   0.6,     0,     1}, "太阳"},
    {"star",       {    0,     0,     0,     0,     0,   0.6,     0,     1}, "星星"},
    {"cloud",      {    0,     0,     0,     0,     0,   0.3,   0.6,   0.7}, "云"},
    // Things: the ribbon of the painting drifts in the air, hence a little can_fly.
    {"ribbon",     {    0,     0,     0,     0,     0,     0,   0.3,  -0.6}, "绸带 丝带"},
    {"painting",   {    0,     0,     0,     0,   0.3,     0,     0,  -0.2}, "画 图画"},
    {"mat",        {    0,     0,     0,     0,     0,   0.3,     0,  -0.4}, "垫子"},
    {"book",       {    0,     0,     0,   0.2,     0,     0,     0,  -0.5}, "书"},
    {"ball",       {    0,     0,     0,     0,     0,     0,     0,  -0.6}, "球"},
    {"chair",      {    0,     0,     0,     0,     0,   0.2,     0,  -0.3}, "椅子"},
    {"table",      {    0,     0,     0,     0,     0,   0.2,     0,     0}, "桌子"},
    {"hat",        {    0,     0,     0,     0,   0.3,     0,     0,  -0.6}, "帽子"},
    {"stone",      {    0,     0,     0,     0,     0,   0.3,     0,  -0.5}, "石头"},
    // Actions lean towards whoever or whatever does them.
    {"fly",        {    0,     0,     0,     0,     0,     0,     1,     0}, "飞"},
    {"flies",      {    0,     0,     0,     0,     0,     0,     1,     0}, "飞过"},
    {"flying",     {    0,     0,     0,     0,     0,     0,     1,     0}, "飞行 飞翔"},
    {"eat",        {  0.3,     0,   0.8,     0,   0.3,     0,     0,     0}, "吃"},
    {"eats",       {  0.3,     0,   0.8,     0,   0.3,     0,     0,     0}, ""},
    {"drink",      {    0,     0,   0.8,     0,   0.3,     0,     0,     0}, "喝"},
    {"like",       {    0,     0,     0,     0,   0.5,     0,     0,     0}, "喜欢"},
    {"likes",      {    0,     0,     0,     0,   0.5,     0,     0,     0}, ""},
    {"love",       {    0,     0,     0,     0,   0.6,     0,     0,     0}, "爱"},
    {"see",        {    0,     0,     0,     0,   0.4,     0,     0,     0}, "看 看见"},
    {"look",       {    0,     0,     0,     0,   0.4,     0,     0,     0}, ""},
    {"looks",      {    0,     0,     0,     0,   0.4,     0,     0,     0}, ""},
    {"sit",        {  0.3,     0,     0,     0,   0.3,   0.2,     0,     0}, "坐"},
    {"sat",        {  0.3,     0,     0,     0,   0.3,   0.2,     0,     0}, ""},
    {"run",        {  0.5,     0,     0,     0,   0.5,     0,     0,     0}, "跑"},
    {"swim",       {  0.6,     0,     0,     0,   0.3,   0.2,     0,     0}, "游泳"},
    {"sing",       {  0.4,     0,     0,     0,   0.6,     0,     0,     0}, "唱歌"},
    {"sings",      {  0.4,     0,     0,     0,   0.6,     0,     0,     0}, "唱"},
    {"grow",       {  0.2,   0.8,     0,     0,     0,     0,     0,     0}, "生长 长"},
    {"climb",      {  0.4,     0,     0,     0,   0.4,   0.3,     0,     0}, "爬"},
    {"live",       {  0.3,   0.2,     0,     0,   0.4,   0.3,     0,     0}, "住 生活"},
    {"sleep",      {  0.5,     0,     0,     0,   0.5,     0,     0,     0}, "睡觉"},
    {"walk",       {  0.4,     0,     0,     0,   0.5,     0,     0,     0}, "走"},
    {"play",       {  0.3,     0,     0,     0,   0.6,     0,     0,     0}, "玩"},
    {"chase",      {  0.8,     0,     0,     0,   0.2,     0,     0,     0}, "追"},
    {"chases",     {  0.8,     0,     0,     0,   0.2,     0,     0,     0}, ""},
    {"build",      {    0,     0,     0,   0.5,   0.5,   0.3,     0,     0}, "建造"},
    // Size words carry size alone.
    {"big",        {    0,     0,     0,     0,     0,     0,     0,   0.8}, "大"},
    {"small",      {    0,     0,     0,     0,     0,     0,     0,  -0.8}, "小"},
    {"little",     {    0,     0,     0,     0,     0,     0,     0,  -0.8}, ""},
    {"tall",       {    0,     0,     0,     0,     0,     0,     0,   0.7}, "高"},
    {"tiny",       {    0,     0,     0,     0,     0,     0,     0,    -1}, ""},
    {"huge",       {    0,     0,     0,     0,     0,     0,     0,     1}, "巨大"},
    // Words that place things carry a little place.
    {"on",         kPlaceWord,                                               "上"},
    {"in",         kPlaceWord,                                               "里 中"},
    {"at",         kPlaceWord,                                               "在"},
    {"over",       kPlaceWord,                                               ""},
    {"under",      kPlaceWord,                                               "下"},
    {"above",      kPlaceWord,                                               ""},
    // Function words carry no meaning of their own on these features (kFunctionWord).
    {"the",        kFunctionWord,                                            ""},
    {"a",          kFunctionWord,                                            "一"},
    {"an",         kFunctionWord,                                            ""},
    {"and",        kFunctionWord,                                            "和 与"},
    {"but",        kFunctionWord,                                            "但是"},
    {"not",        kFunctionWord,                                            "不"},
    {"is",         kFunctionWord,                                            "是"},
    {"are",        kFunctionWord,                                            ""},
    {"has",        kFunctionWord,                                            "有"},
    {"have",       kFunctionWord,                                            ""},
    {"of",         kFunctionWord,                                            "的"},
    {"to",         kFunctionWord,                                            ""},
    {"with",       kFunctionWord,                                            ""},
    {"this",       kFunctionWord,                                            "这"},
    {"that",       kFunctionWord,                                            "那"},
    {"very",       kFunctionWord,                                            "很"},
    {"also",       kFunctionWord,                                            "也"},
    {"all",        kFunctionWord,                                            "都"},
    {"",           kFunctionWord,                                            "了 吗 只 个 朵"},
};
// clang-format on

// Emoji that picture a word of the table carry that word's vector.
constexpr std::pair<const char*, const char*> kEmoji[] = {
    {"🍎", "apple"}, {"🍊", "orange"},   {"🍌", "banana"}, {"🐦", "bird"},
    {"🐱", "cat"},   {"🐶", "dog"},      {"🌸", "flower"}, {"🌳", "tree"},
    {"📱", "phone"}, {"💻", "computer"}, {"🚀", "rocket"}, {"🤖", "robot"},
};

// Adds each space-separated word of `words` with the same vector.
void add_each(Lexicon& lexicon, std::string_view words, const std::vector<double>& vector) {
  while (!words.empty()) {
    const std::size_t space = words.find(' ');
    const std::string_view word = words.substr(0, space);
    if (!word.empty()) lexicon.add(std::string(word), vector);
    if (space == std::string_view::npos) break;
    words.remove_prefix(space + 1);
  }
}

// The table above is written in decimals for people; the program keeps it in hundredths, one
// byte per value, because the engine that every blog reader downloads carries it (eight doubles
// a word made it ~25 KB of the wasm). The conversion runs at compile time, so kEntries itself is
// never stored, and the static_assert proves that every value is an exact hundredth.
struct CompactEntry {
  const char* english;
  std::array<signed char, 8> hundredths;
  const char* chinese;
};

constexpr int to_hundredths(double x) {
  return static_cast<int>(x < 0 ? x * 100 - 0.5 : x * 100 + 0.5);
}

template <std::size_t N>
constexpr bool all_hundredths(const Entry (&entries)[N]) {
  for (const Entry& e : entries)
    for (double x : e.vector)
      if (to_hundredths(x) / 100.0 != x || x < -1 || x > 1) return false;
  return true;
}
static_assert(all_hundredths(kEntries), "every built-in value must be a hundredth in [-1, 1]");

template <std::size_t N>
constexpr std::array<CompactEntry, N> compact(const Entry (&entries)[N]) {
  std::array<CompactEntry, N> out{};
  for (std::size_t i = 0; i < N; ++i) {
    out[i].english = entries[i].english;
    out[i].chinese = entries[i].chinese;
    for (std::size_t t = 0; t < 8; ++t)
      out[i].hundredths[t] = static_cast<signed char>(to_hundredths(entries[i].vector[t]));
  }
  return out;
}

constexpr auto kCompactEntries = compact(kEntries);

Lexicon make_builtin_lexicon() {
  Lexicon lexicon({"animal", "plant", "food", "technology", "person", "place", "can_fly", "size"});
  for (const CompactEntry& entry : kCompactEntries) {
    std::vector<double> vector(8);
    for (std::size_t t = 0; t < 8; ++t) vector[t] = entry.hundredths[t] / 100.0;
    add_each(lexicon, entry.english, vector);
    add_each(lexicon, entry.chinese, vector);
  }
  for (const auto& [emoji, word] : kEmoji) lexicon.add(emoji, *lexicon.find(word));
  return lexicon;
}

Lexicon make_fruit_lexicon() {
  // The seed's example, verbatim: colour, fruit-ness and tech-ness of three words.
  Lexicon lexicon({"colour", "fruit", "tech"});
  lexicon.add("apple", {1, 2, 1});
  lexicon.add("orange", {2, 2, 0});
  lexicon.add("iPhone", {0, 2, 3});
  lexicon.add("苹果", {1, 2, 1});
  lexicon.add("橘子", {2, 2, 0});
  return lexicon;
}

}  // namespace

bool Lexicon::add(std::string word, std::vector<double> vector) {
  if (word.empty() || vector.size() != dims()) return false;
  for (double x : vector) {
    if (!std::isfinite(x)) return false;
  }
  if (!exact_.empty()) {
    if (const std::uint32_t at = exact_[slot(exact_, word, false)]) {
      vectors_[at - 1] = std::move(vector);
      return true;
    }
  }
  longest_ = std::max(longest_, word.size());
  words_.push_back(std::move(word));
  vectors_.push_back(std::move(vector));
  if (2 * words_.size() <= exact_.size()) {
    place(words_.size() - 1);
  } else {  // twice the size, and every word again
    exact_.assign(std::max<std::size_t>(16, 2 * exact_.size()), 0);
    folded_.assign(exact_.size(), 0);
    for (std::size_t i = 0; i < words_.size(); ++i) place(i);
  }
  return true;
}

// The slot that holds the place of `word`, or the empty slot where it would go.
std::size_t Lexicon::slot(const std::vector<std::uint32_t>& table, std::string_view word,
                          bool fold) const {
  const std::size_t mask = table.size() - 1;
  for (std::size_t i = hash_of(word, fold) & mask;; i = (i + 1) & mask) {
    if (table[i] == 0 || same(words_[table[i] - 1], word, fold)) return i;
  }
}

void Lexicon::place(std::size_t i) {
  const auto at = static_cast<std::uint32_t>(i + 1);
  exact_[slot(exact_, words_[i], false)] = at;
  std::uint32_t& folded = folded_[slot(folded_, words_[i], true)];
  if (folded == 0) folded = at;  // the first word of this spelling stays
}

std::size_t Lexicon::index_of(std::string_view word) const {
  if (exact_.empty()) return std::string_view::npos;
  std::uint32_t at = exact_[slot(exact_, word, false)];
  if (at == 0) at = folded_[slot(folded_, word, true)];
  return at == 0 ? std::string_view::npos : at - 1;
}

const std::vector<double>* Lexicon::find(std::string_view word) const {
  const std::size_t i = index_of(word);
  return i == std::string_view::npos ? nullptr : &vectors_[i];
}

const Lexicon& builtin_lexicon() {
  static const Lexicon lexicon = make_builtin_lexicon();
  return lexicon;
}

const Lexicon& fruit_lexicon() {
  static const Lexicon lexicon = make_fruit_lexicon();
  return lexicon;
}

const std::vector<std::string>& example_sentences(std::string_view lang) {
  static const std::vector<std::string> english = {
      "the cat sat on the mat",
      "the bird flies over the mountain",
      "I like apples and oranges",
      "the apple and the orange are fruit but the iPhone is a phone",
      "a person looks at the flowers in the painting",
      "the dog chases the cat in the garden",
      "a little bird flies over the tall mountain",
  };
  static const std::vector<std::string> chinese = {
      "我喜欢苹果",                  // 我 / 喜欢 / 苹果
      "小鸟飞过高山",                // 小鸟 / 飞过 / 高山
      "鸟在天空中飞行",              // 鸟 / 在 / 天空 / 中 / 飞行
      "人在山下看花",                // 人 / 在 / 山 / 下 / 看 / 花
      "画里有人、山、花、鸟和绸带",  // 画 / 里 / 有 / 人 / 山 / 花 / 鸟 / 和 / 绸带
      "苹果和橘子都是水果",          // 苹果 / 和 / 橘子 / 都 / 是 / 水果
      "猫坐在垫子上",                // 猫 / 坐 / 在 / 垫子 / 上
      "女孩和小狗在公园里玩",        // 女孩 / 和 / 小狗 / 在 / 公园 / 里 / 玩
  };
  static const std::vector<std::string> none;
  if (lang == "en") return english;
  if (lang == "zh") return chinese;
  return none;
}

std::vector<double> unknown_vector(std::string_view word, std::size_t dims) {
  Rng rng(fnv1a64(word.data(), word.size()));
  std::vector<double> vector(dims);
  for (double& x : vector) {
    // Two decimals: the vector is shown to the reader, and 0.37 reads better than 0.3719…
    // Adding 0.0 turns a rounded −0 into 0, which would otherwise print as "-0".
    x = std::round(rng.uniform(-1.0, 1.0) * 100.0) / 100.0 + 0.0;
  }
  return vector;
}

}  // namespace attn
