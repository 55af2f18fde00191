-- Geography reference data, shared by every store: the GCC countries, Saudi Arabia's 13 regions
-- (ISO 3166-2:SA; there is no SA-13), its main cities (city 1 is Riyadh and 2 Jeddah: demo data and
-- tests name them) and a few districts of Riyadh and Jeddah. `keywords` holds other spellings a
-- search should find, Latin and Arabic (ه for ة, ا for أ). Coordinates are the city centres.
INSERT INTO `countries` (`id`, `code`, `name_en`, `name_ar`, `phone_code`, `ordering`) VALUES
	(1, 'SA', 'Saudi Arabia', 'المملكة العربية السعودية', '966', 1),
	(2, 'AE', 'United Arab Emirates', 'الإمارات العربية المتحدة', '971', 2),
	(3, 'KW', 'Kuwait', 'الكويت', '965', 3),
	(4, 'QA', 'Qatar', 'قطر', '974', 4),
	(5, 'BH', 'Bahrain', 'البحرين', '973', 5),
	(6, 'OM', 'Oman', 'عُمان', '968', 6);
--> statement-breakpoint
INSERT INTO `regions` (`id`, `country_id`, `code`, `name_en`, `name_ar`, `ordering`) VALUES
	(1, 1, 'SA-01', 'Riyadh Region', 'منطقة الرياض', 1),
	(2, 1, 'SA-02', 'Makkah Region', 'منطقة مكة المكرمة', 2),
	(3, 1, 'SA-03', 'Madinah Region', 'منطقة المدينة المنورة', 3),
	(4, 1, 'SA-04', 'Eastern Province', 'المنطقة الشرقية', 4),
	(5, 1, 'SA-05', 'Al-Qassim Region', 'منطقة القصيم', 5),
	(6, 1, 'SA-06', 'Ha''il Region', 'منطقة حائل', 6),
	(7, 1, 'SA-07', 'Tabuk Region', 'منطقة تبوك', 7),
	(8, 1, 'SA-08', 'Northern Borders Region', 'منطقة الحدود الشمالية', 8),
	(9, 1, 'SA-09', 'Jazan Region', 'منطقة جازان', 9),
	(10, 1, 'SA-10', 'Najran Region', 'منطقة نجران', 10),
	(11, 1, 'SA-11', 'Al Bahah Region', 'منطقة الباحة', 11),
	(12, 1, 'SA-12', 'Al Jawf Region', 'منطقة الجوف', 12),
	(13, 1, 'SA-14', 'Asir Region', 'منطقة عسير', 13);
--> statement-breakpoint
INSERT INTO `cities` (`id`, `region_id`, `country_code`, `name_en`, `name_ar`, `keywords`, `lat`, `lng`, `ordering`) VALUES
	(1, 1, 'SA', 'Riyadh', 'الرياض', 'Riyad Ar Riyadh Ar-Riyadh Al Riyadh Er Riad رياض', 24.7136, 46.6753, 1),
	(2, 2, 'SA', 'Jeddah', 'جدة', 'Jiddah Jidda Jedda Juddah Jeddha جده', 21.4858, 39.1925, 2),
	(3, 2, 'SA', 'Makkah', 'مكة المكرمة', 'Mecca Makka Mekka Makkah Al Mukarramah مكه مكة', 21.3891, 39.8579, 3),
	(4, 3, 'SA', 'Madinah', 'المدينة المنورة', 'Medina Madina Medinah Al Madinah Al Munawwarah المدينه', 24.5247, 39.5692, 4),
	(5, 4, 'SA', 'Dammam', 'الدمام', 'Damam Ad Dammam Al-Dammam دمام', 26.4207, 50.0888, 5),
	(6, 4, 'SA', 'Al Khobar', 'الخبر', 'Khobar Al-Khobar Alkhobar Khubar خبر', 26.2172, 50.1971, 6),
	(7, 4, 'SA', 'Dhahran', 'الظهران', 'Az Zahran Zahran Al Dhahran ظهران', 26.2361, 50.0393, 7),
	(8, 5, 'SA', 'Buraydah', 'بريدة', 'Buraidah Buraida Breda Burayda بريده', 26.3592, 43.9818, 8),
	(9, 6, 'SA', 'Ha''il', 'حائل', 'Hail Hayel Hayil حايل', 27.5114, 41.7208, 9),
	(10, 7, 'SA', 'Tabuk', 'تبوك', 'Tabouk Tabook', 28.3835, 36.5662, 10),
	(11, 8, 'SA', 'Arar', 'عرعر', 'Ar''ar Arrar', 30.9753, 41.0381, 11),
	(12, 9, 'SA', 'Jazan', 'جازان', 'Jizan Gizan Jaizan جيزان', 16.8894, 42.5706, 12),
	(13, 10, 'SA', 'Najran', 'نجران', 'Nejran Nagran', 17.4933, 44.1277, 13),
	(14, 11, 'SA', 'Al Bahah', 'الباحة', 'Baha Al Baha Albaha Al-Bahah الباحه', 20.0129, 41.4677, 14),
	(15, 12, 'SA', 'Sakakah', 'سكاكا', 'Sakaka Skaka Al Jawf', 29.9697, 40.2064, 15),
	(16, 13, 'SA', 'Abha', 'أبها', 'Abhā ابها', 18.2164, 42.5053, 16),
	(17, 2, 'SA', 'Taif', 'الطائف', 'Ta''if At Taif Al Taif Altaif الطايف طائف', 21.2703, 40.4158, 17),
	(18, 3, 'SA', 'Yanbu', 'ينبع', 'Yanbu Al Bahr Yenbo Yanbo Yambu', 24.0895, 38.0618, 18),
	(19, 4, 'SA', 'Al-Ahsa', 'الأحساء', 'Al Ahsa Al Hasa Alahsa Hasa Hofuf Hufuf Al Hofuf الاحساء الهفوف', 25.3833, 49.5867, 19),
	(20, 4, 'SA', 'Jubail', 'الجبيل', 'Al Jubail Al-Jubail Jubayl جبيل', 27.0046, 49.6460, 20),
	(21, 13, 'SA', 'Khamis Mushait', 'خميس مشيط', 'Khamis Mushayt Khamees Mushait Khamis Mushaet', 18.3060, 42.7290, 21),
	(22, 4, 'SA', 'Qatif', 'القطيف', 'Al Qatif Al-Qatif Katif قطيف', 26.5650, 49.9964, 22),
	(23, 5, 'SA', 'Unaizah', 'عنيزة', 'Unayzah Onaizah Anaiza Unaiza عنيزه', 26.0843, 43.9935, 23),
	(24, 1, 'SA', 'Al-Kharj', 'الخرج', 'Al Kharj Kharj Alkharj خرج', 24.1556, 47.3120, 24);
--> statement-breakpoint
INSERT INTO `districts` (`id`, `city_id`, `name_en`, `name_ar`, `ordering`) VALUES
	(1, 1, 'Al Olaya', 'العليا', 1),
	(2, 1, 'Al Malqa', 'الملقا', 2),
	(3, 1, 'Al Yasmin', 'الياسمين', 3),
	(4, 1, 'Al Nakheel', 'النخيل', 4),
	(5, 1, 'Al Sahafa', 'الصحافة', 5),
	(6, 1, 'Hittin', 'حطين', 6),
	(7, 1, 'Al Wurud', 'الورود', 7),
	(8, 1, 'Al Murabba', 'المربع', 8),
	(9, 2, 'Al Rawdah', 'الروضة', 1),
	(10, 2, 'Al Hamra', 'الحمراء', 2),
	(11, 2, 'Al Shati', 'الشاطئ', 3),
	(12, 2, 'Al Zahra', 'الزهراء', 4),
	(13, 2, 'Al Salamah', 'السلامة', 5),
	(14, 2, 'Al Balad', 'البلد', 6),
	(15, 2, 'Obhur Al Shamaliyah', 'أبحر الشمالية', 7);
